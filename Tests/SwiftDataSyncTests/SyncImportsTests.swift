import Foundation
import Testing

/// The sync's client engine runs over Apple's SwiftData as well as OpenSwiftData: its sources
/// import SwiftData's public API, Foundation and networking (and the standard library's
/// Observation and Synchronization), and nothing of OpenSwiftData's own.
@Suite struct SyncImportsTests {
    static let allowed: Set<String> = ["Foundation", "FoundationNetworking", "SwiftData", "Observation", "Synchronization"]

    @Test func theEngineImportsOnlySwiftDataFoundationAndNetworking() throws {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/", !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder.deleteLastPathComponent()
        }
        let sources = folder.appendingPathComponent("Sources/SwiftDataSync")
        let files = try #require(FileManager.default.subpaths(atPath: sources.path)).filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ").map(String.init)
                guard let index = words.firstIndex(of: "import"), words[..<index].allSatisfy({ $0.hasPrefix("@") || $0 == "public" || $0 == "package" || $0 == "internal" }),
                      index + 1 < words.count else { continue }
                let module = words[index + 1].split(separator: ".").first.map(String.init) ?? ""
                #expect(Self.allowed.contains(module), "\(file) imports \(module)")
            }
        }
    }
}
