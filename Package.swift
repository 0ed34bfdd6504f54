// swift-tools-version: 6.2
import CompilerPluginSupport
import Foundation
import PackageDescription

// Scripts/fuzz.sh builds with OSD_FUZZ=1: the library is instrumented for libFuzzer and the
// MetadataFuzzer is its fuzz target. Otherwise MetadataFuzzer replays the inputs it is given.
let fuzzing = ProcessInfo.processInfo.environment["OSD_FUZZ"] != nil
let instrumentedForFuzzing: [SwiftSetting] = fuzzing ? [.unsafeFlags(["-sanitize=fuzzer"])] : []

let package = Package(
    name: "OpenSwiftData",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "OpenSwiftData", targets: ["OpenSwiftData"]),
        // `import SwiftData` for code built where Apple's SwiftData does not exist (Linux).
        .library(name: "SwiftData", targets: ["SwiftData"]),
        // The PostgreSQL store, a product of its own so that SQLite-only apps never build
        // postgres-nio.
        .library(name: "OpenSwiftDataPostgres", targets: ["OpenSwiftDataPostgres"]),
        .executable(name: "osd", targets: ["osd"]),
        // Web frameworks' integrations, products of their own: only those who name one build
        // its framework.
        .library(name: "OpenSwiftDataHummingbird", targets: ["OpenSwiftDataHummingbird"]),
        .library(name: "OpenSwiftDataVapor", targets: ["OpenSwiftDataVapor"]),
        // The sync's client engine and server core: SwiftData's public API only, so that it also
        // builds over Apple's SwiftData.
        .library(name: "SwiftDataSync", targets: ["SwiftDataSync"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/pointfreeco/swift-macro-testing", from: "0.7.0"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // The tests' Hummingbird authentication (the sync's zones).
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .macro(
            name: "OpenSwiftDataMacros",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ]
        ),
        // SQLite's defensive settings, which only a variadic C function sets.
        .target(
            name: "SQLiteDefensive",
            linkerSettings: [.linkedLibrary("sqlite3")]
        ),
        // A thread-local pointer as C has it: the backing-data handoff's offer, a load and a
        // store per loaded model.
        .target(name: "ThreadLocalOffer"),
        // The system's zlib, for the model a Core Data store keeps (raw DEFLATE).
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        .target(
            name: "OpenSwiftData",
            dependencies: [
                "OpenSwiftDataMacros",
                "SQLiteDefensive",
                "ThreadLocalOffer",
                "CZlib",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: instrumentedForFuzzing
        ),
        .target(
            name: "SwiftData",
            dependencies: ["OpenSwiftData"]
        ),
        // The sync's client engine and the merging it shares with the server: SwiftData's
        // public API only, so that it runs over Apple's SwiftData too.
        .target(
            name: "SwiftDataSync",
            dependencies: ["SwiftData"]
        ),
        .target(
            name: "OpenSwiftDataPostgres",
            dependencies: [
                "OpenSwiftData",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What a server's integration with any web framework shares: a request's models, and
        // the HTTP status of OpenSwiftData's errors.
        .target(
            name: "OpenSwiftDataServer",
            dependencies: ["OpenSwiftData"]
        ),
        .target(
            name: "OpenSwiftDataHummingbird",
            dependencies: [
                "OpenSwiftData", "OpenSwiftDataServer", "SwiftDataSync",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .target(
            name: "OpenSwiftDataVapor",
            dependencies: [
                "OpenSwiftData", "OpenSwiftDataServer", "SwiftDataSync",
                .product(name: "Vapor", package: "vapor"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The example server (Examples/NotesServer): `swift run notes-server`.
        .target(
            name: "NotesServerApp",
            dependencies: [
                "OpenSwiftData", "OpenSwiftDataPostgres", "OpenSwiftDataHummingbird",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Examples/NotesServer/Sources/NotesServerApp"
        ),
        .executableTarget(
            name: "notes-server",
            dependencies: [
                "NotesServerApp",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/NotesServer/Sources/notes-server"
        ),
        .target(
            name: "PixarFilmTracker",
            dependencies: ["OpenSwiftData"]
        ),
        .executableTarget(
            name: "osd",
            dependencies: [
                "OpenSwiftData",
                "OpenSwiftDataPostgres",
                "PixarFilmTracker",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A process opening a store as an app or its extension would, for the tests of several
        // processes sharing one store.
        .executableTarget(
            name: "StoreOpener",
            dependencies: ["OpenSwiftData"],
            path: "Tests/StoreOpener"
        ),
        // A server process sharing one PostgreSQL store with others, for the tests of several
        // servers on one database.
        // The models PostgresServerProcess saves, which the tests open its store with.
        .target(
            name: "PostgresServerModels",
            dependencies: ["OpenSwiftData"],
            path: "Tests/PostgresServerModels"
        ),
        .executableTarget(
            name: "PostgresServerProcess",
            dependencies: [
                "OpenSwiftData", "OpenSwiftDataPostgres", "PostgresServerModels", .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Tests/PostgresServerProcess"
        ),
        // What OpenSwiftData reads from store files it did not write, fuzzed (Scripts/fuzz.sh).
        .executableTarget(
            name: "MetadataFuzzer",
            dependencies: ["OpenSwiftData", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/Fuzz",
            swiftSettings: fuzzing ? [.unsafeFlags(["-sanitize=fuzzer", "-parse-as-library"]), .define("FUZZING")] : [],
            linkerSettings: fuzzing ? [.unsafeFlags(["-sanitize=fuzzer", "-use-ld=lld"])] : []
        ),
        // What the test targets share: waiting for other processes and threads off the pool
        // that runs the tests' tasks, the PostgreSQL server, the history tests' models.
        .target(name: "TestSupport", dependencies: ["OpenSwiftData"], path: "Tests/TestSupport"),
        .testTarget(
            name: "OpenSwiftDataTests",
            dependencies: [
                "OpenSwiftData",
                "OpenSwiftDataPostgres",
                "TestSupport",
                "osd",
                "StoreOpener",
                "MetadataFuzzer",
                "PixarFilmTracker",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "SwiftDataSyncTests",
            dependencies: [
                "SwiftDataSync", "SwiftData", "TestSupport", "SyncTestModels", "SyncServerProcess", "SyncDeviceProcess",
                "OpenSwiftDataPostgres",
            ]
        ),
        // The sync tests' models and random edits, and the processes of the sync tests: a
        // server on PostgreSQL behind Hummingbird, and a device.
        .target(name: "SyncTestModels", dependencies: ["SwiftData", "TestSupport"], path: "Tests/SyncTestModels"),
        .executableTarget(
            name: "SyncServerProcess",
            dependencies: [
                "SwiftDataSync", "SyncTestModels", "OpenSwiftData", "OpenSwiftDataPostgres", "OpenSwiftDataHummingbird", "OpenSwiftDataServer",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            path: "Tests/SyncServerProcess"
        ),
        .executableTarget(name: "SyncDeviceProcess", dependencies: ["SwiftDataSync", "SyncTestModels", "TestSupport"], path: "Tests/SyncDeviceProcess"),
        .testTarget(
            name: "OpenSwiftDataPostgresTests",
            dependencies: [
                "OpenSwiftDataPostgres", "OpenSwiftData", "osd", "PostgresServerProcess", "PostgresServerModels", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "OpenSwiftDataServerTests",
            dependencies: [
                "OpenSwiftData", "OpenSwiftDataPostgres", "OpenSwiftDataServer", "OpenSwiftDataHummingbird", "OpenSwiftDataVapor", "TestSupport",
                "SwiftDataSync", "SyncTestModels",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "VaporTesting", package: "vapor"),
            ]
        ),
        .testTarget(
            name: "NotesServerTests",
            dependencies: [
                "NotesServerApp", "OpenSwiftData", "TestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            path: "Examples/NotesServer/Tests"
        ),
        .testTarget(
            name: "SwiftDataModuleTests",
            dependencies: ["SwiftData"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "OpenSwiftDataSwift5Tests",
            dependencies: ["OpenSwiftData"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(
            name: "OpenSwiftDataSwift6ConcurrencyTests",
            dependencies: ["OpenSwiftData"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "OpenSwiftDataMainActorTests",
            dependencies: ["OpenSwiftData"],
            swiftSettings: [.swiftLanguageMode(.v6), .defaultIsolation(MainActor.self)]
        ),
        .testTarget(
            name: "OpenSwiftDataMacrosTests",
            dependencies: [
                "OpenSwiftDataMacros",
                .product(name: "MacroTesting", package: "swift-macro-testing"),
                .product(name: "InlineSnapshotTesting", package: "swift-snapshot-testing"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
            ]
        ),
    ]
)
