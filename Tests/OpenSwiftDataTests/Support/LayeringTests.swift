import Foundation
import Testing

/// The layers of `Sources/OpenSwiftData` (one folder each) use only what they may: a file fails
/// this test when it names a type declared in a folder its layer must not use. Swift has no
/// per-file imports, so the check reads names: every capitalised word of a line that is not a
/// comment or a string, against the folder that declares a type of that name.
@Suite struct LayeringTests {
    /// For each layer, the layers it must not use (see DESIGN.md, Layers).
    static let forbidden: [String: Set<String>] = [
        "Support": ["Errors", "Model", "Schema", "Store", "Query", "Context", "Concurrency", "Migration", "Macros"],
        "Errors": ["Support", "Model", "Schema", "Store", "Query", "Context", "Concurrency", "Migration", "Macros"],
        "Model": ["Store", "Query", "Migration", "Concurrency"],
        "Schema": ["Store", "Query", "Context", "Migration", "Concurrency"],
        "Store": ["Query", "Context", "Migration", "Concurrency"],
        "Query": ["Store", "Context", "Migration", "Concurrency"],
        "Context": ["Concurrency"],
    ]

    /// `Sources/OpenSwiftData` of the package this file is in.
    static let sources: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/", !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("Sources/OpenSwiftData")
    }()

    @Test func noLayerNamesATypeOfALayerItMayNotUse() throws {
        let files = try Self.swiftFiles()
        let declaration = try Regex(#"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|internal|private|fileprivate|package|final|open|indirect|nonisolated)\s+)*(?:struct|class|enum|protocol|actor|typealias)\s+([A-Z]\w*)"#)
        var layersDeclaring: [String: Set<String>] = [:]
        for (layer, lines) in files.values {
            for line in lines {
                if let match = line.firstMatch(of: declaration), let name = match.output[1].substring {
                    layersDeclaring[String(name), default: []].insert(layer)
                }
            }
        }
        // A name declared in one layer only is that layer's; `CodingKeys` and the like are everyone's.
        let owner = layersDeclaring.compactMapValues { $0.count == 1 ? $0.first : nil }
        // Whole identifiers; the capitalised ones are looked up. (Swift's `\b` with its default,
        // Unicode word boundaries, does not match here.)
        let word = try Regex(#"[A-Za-z0-9_]+"#)
        let stringLiteral = try Regex(#""(?:[^"\\]|\\.)*""#)
        var crossings: [String] = []
        for (path, (layer, lines)) in files.sorted(by: { $0.key < $1.key }) {
            guard let mustNotUse = Self.forbidden[layer] else { continue }
            for (number, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                let code = String(line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false)[0])
                    .replacing(stringLiteral, with: "\"\"")
                for match in code.matches(of: word) {
                    let name = String(code[match.range])
                    guard name.first!.isUppercase else { continue }
                    if let other = owner[name], other != layer, mustNotUse.contains(other) {
                        crossings.append("\(path):\(number + 1): \(layer) names \(name), a type of \(other)")
                    }
                }
            }
        }
        #expect(crossings.isEmpty, "\(crossings.joined(separator: "\n"))")
        #expect(files.count > 50, "the sources were found at \(Self.sources.path)")
    }

    /// The Model layer calls up into Context only through its seam: the context a model's
    /// state holds, the public `modelContext`, and the calls in `ModelState+ContextCalls.swift`.
    @Test func modelCallsUpIntoContextOnlyThroughItsSeam() throws {
        let seam: Set<String> = ["Model/ModelState+ContextCalls.swift", "Model/ModelState.swift", "Model/PersistentModel.swift"]
        let contextTypes: Set<String> = ["ModelContext", "ModelContainer", "SavedValues"]
        let word = try Regex(#"[A-Za-z0-9_]+"#)
        var calls: [String] = []
        for (path, (layer, lines)) in try Self.swiftFiles() where layer == "Model" && !seam.contains(path) {
            for (number, line) in lines.enumerated() {
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false)[0]
                    .replacing(try Regex(#""(?:[^"\\]|\\.)*""#), with: "\"\"")
                let names = code.matches(of: word).map { String(code[$0.range]) }
                if names.contains(where: contextTypes.contains) || code.contains("context?.") || code.contains("context!.") {
                    calls.append("\(path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(calls.isEmpty, "\(calls.joined(separator: "\n"))")
    }

    /// Every Swift file of the library, by path: its layer (its first folder) and its lines.
    /// SQLite (GRDB) is the SQLite store's alone: only files under `Store/SQLite/` import it, and the
    /// PostgreSQL store's package never does. Everything else speaks `SQLFragment` and
    /// `StoredValue`, which each store renders in its own dialect.
    @Test func onlyTheSQLiteStoreImportsGRDB() throws {
        var importers: [String] = []
        for (path, (_, lines)) in try Self.swiftFiles() where !path.hasPrefix("Store/SQLite/") {
            if lines.contains(where: { $0.hasPrefix("import GRDB") || $0.hasPrefix("@preconcurrency import GRDB") }) { importers.append(path) }
        }
        let postgres = Self.sources.deletingLastPathComponent().appendingPathComponent("OpenSwiftDataPostgres")
        for name in try FileManager.default.contentsOfDirectory(atPath: postgres.path) where name.hasSuffix(".swift") {
            let text = try String(contentsOf: postgres.appendingPathComponent(name), encoding: .utf8)
            if text.contains("import GRDB") { importers.append("OpenSwiftDataPostgres/\(name)") }
        }
        #expect(importers.isEmpty, "import GRDB outside Store/SQLite/: \(importers.joined(separator: ", "))")
    }

    private static func swiftFiles() throws -> [String: (layer: String, lines: [String])] {
        var files: [String: (String, [String])] = [:]
        let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let relative = url.path.dropFirst(sources.path.count + 1)
            guard let layer = relative.split(separator: "/").first, relative.contains("/") else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            files[String(relative)] = (String(layer), text.components(separatedBy: "\n"))
        }
        return files
    }
}
