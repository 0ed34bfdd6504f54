// swift-tools-version: 6.1
// The benchmark runner: its own package so GRDB-as-yardstick stays out of the library.
// Build and run only in release: `swift run -c release --package-path Benchmarks osd-bench`.
import PackageDescription

let package = Package(
    name: "OpenSwiftDataBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "OpenSwiftData", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The PostgreSQL yardsticks: postgres-nio used directly, and Fluent.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/vapor/fluent-kit", from: "1.57.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver", from: "2.14.0"),
        // The web server benchmark (TechEmpower's database tests): Hummingbird and Vapor.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
        .package(url: "https://github.com/vapor/fluent", from: "4.13.0"),
    ],
    targets: [
        // The system SQLite C API (libsqlite3-dev), for the raw driver.
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .executableTarget(
            name: "osd-bench",
            dependencies: [
                "CSQLite",
                .product(name: "OpenSwiftData", package: "OpenSwiftData"),
                .product(name: "OpenSwiftDataPostgres", package: "OpenSwiftData"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "FluentKit", package: "fluent-kit"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/osd-bench",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // The servers of Benchmarks/techempower.sh: one per driver, on one command line.
        .executableTarget(
            name: "techempower",
            dependencies: [
                .product(name: "OpenSwiftData", package: "OpenSwiftData"),
                .product(name: "OpenSwiftDataPostgres", package: "OpenSwiftData"),
                .product(name: "OpenSwiftDataHummingbird", package: "OpenSwiftData"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Fluent", package: "fluent"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/techempower"
        ),
        // The sync benchmark of Benchmarks/sync.sh: a server, a new device, two devices syncing.
        .executableTarget(
            name: "sync-bench",
            dependencies: [
                .product(name: "OpenSwiftData", package: "OpenSwiftData"),
                .product(name: "SwiftData", package: "OpenSwiftData"),
                .product(name: "SwiftDataSync", package: "OpenSwiftData"),
                .product(name: "OpenSwiftDataPostgres", package: "OpenSwiftData"),
                .product(name: "OpenSwiftDataHummingbird", package: "OpenSwiftData"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/sync-bench"
        ),
    ]
)
