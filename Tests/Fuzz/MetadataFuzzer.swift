import Foundation
import GRDB
@testable import OpenSwiftData

// Fuzzes what OpenSwiftData reads from a store file it did not write: the recorded schema's JSON
// and a store opened with it. Built by Scripts/fuzz.sh with libFuzzer (OSD_FUZZ=1 adds the
// flags); built as usual, it replays the inputs given as arguments (the regression corpus), so a
// test can run every input that once found a bug.
//
// The first byte of an input chooses what the rest is:
//   even: a recorded schema, decoded and compared and planned against the fuzzer's models;
//   odd:  the schema JSON of a store of the fuzzer's models, opened by a container.

@Model final class FuzzNote {
    #Unique<FuzzNote>([\.title])
    var title: String
    var count: Int
    var tags: [FuzzTag] = []
    var folder: FuzzFolder?
    init(title: String, count: Int) {
        self.title = title
        self.count = count
    }
}

@Model final class FuzzTag {
    var name: String
    var notes: [FuzzNote] = []
    init(name: String) { self.name = name }
}

@Model final class FuzzFolder {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \FuzzNote.folder) var notes: [FuzzNote] = []
    init(name: String) { self.name = name }
}

enum MetadataFuzzing {
    static let models = Schema([FuzzNote.self, FuzzTag.self, FuzzFolder.self])
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("osd-fuzz-\(getpid())")

    /// A store of the models with a few rows, written once; each input opens a copy.
    static let template: URL = {
        let url = folder.appendingPathComponent("template.store")
        try? FileManager.default.removeItem(at: folder)
        let context = ModelContext(try! ModelContainer(for: models, configurations: ModelConfiguration(url: url)))
        let note = FuzzNote(title: "a", count: 1)
        note.tags = [FuzzTag(name: "t")]
        note.folder = FuzzFolder(name: "f")
        context.insert(note)
        try! context.save()
        return url
    }()

    static func run(_ data: Data) {
        guard let mode = data.first else { return }
        let text = String(decoding: data.dropFirst(), as: UTF8.self)
        if mode % 2 == 0 {
            decodeAndPlan(text)
        } else {
            open(withRecordedSchema: text)
        }
    }

    /// Decodes `json` as a recorded schema, and does with it what opening a store does before
    /// touching the file: fingerprint, comparison, the migration's plan and its table changes.
    static func decodeAndPlan(_ json: String) {
        guard let stored = try? JSONDecoder().decode(Schema.self, from: Data(json.utf8)),
              var metadata = try? StoreMetadata(schema: stored)
        else { return }
        _ = try? stored.canonicalJSON()
        _ = SchemaComparison(from: stored.entities, to: models.entities).description
        _ = SchemaComparison(from: models.entities, to: stored.entities).description
        metadata.schemaJSON = json
        let url = folder.appendingPathComponent("plan.store")
        for backingUp in [true, false] {
            guard let migration = try? MigrationPlanner.migration(
                of: url, stored: metadata, to: models, versions: nil, entitiesElsewhere: [], backingUp: backingUp)
            else { continue }
            for restructuring in (try? migration.restructurings) ?? [] {
                _ = restructuring.structuralProblems()
            }
        }
    }

    /// Opens a copy of the template store whose recorded schema is `json`, with the models.
    static func open(withRecordedSchema json: String) {
        let url = folder.appendingPathComponent("open-\(UUID().uuidString).store")
        defer {
            for suffix in ["", "-wal", "-shm", ".backup"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        }
        do {
            try FileManager.default.copyItem(at: template, to: url)
            let queue = try DatabaseQueue(path: url.path)
            try queue.write { db in
                try db.execute(sql: "UPDATE _osd_metadata SET value = ? WHERE key = 'schema'", arguments: [json])
                try db.execute(sql: "UPDATE _osd_metadata SET value = 'fuzzed' WHERE key = 'fingerprint'")
            }
            try queue.close()
        } catch {
            return
        }
        if let container = try? ModelContainer(for: models, configurations: ModelConfiguration(url: url)) {
            _ = try? ModelContext(container).fetch(FetchDescriptor<FuzzNote>())
        }
        _ = try? StoreInspection(storeAt: url)
        _ = try? StoreInspection.problems(inStoreAt: url)
    }
}

#if FUZZING
/// libFuzzer's driver, called from this executable's own `main` (SwiftPM names an executable's
/// entry point itself, so libFuzzer's `main` is not the one that runs).
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The fuzz target by the name libFuzzer's runtime refers to.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    MetadataFuzzing.run(bytes.map { Data(bytes: $0, count: count) } ?? Data())
    return 0
}

@main
struct Fuzz {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv) { bytes, count in fuzzOneInput(bytes, count) })
    }
}
#else
@main
struct Replay {
    static func main() throws {
        // The recorded schema of the fuzzer's models, from which the seeds were made.
        if CommandLine.arguments.dropFirst().first == "--schema" {
            return print(String(decoding: try MetadataFuzzing.models.canonicalJSON(), as: UTF8.self))
        }
        for path in CommandLine.arguments.dropFirst() {
            MetadataFuzzing.run(try Data(contentsOf: URL(fileURLWithPath: path)))
            print("ok \(path)")
        }
        try? FileManager.default.removeItem(at: MetadataFuzzing.folder)
    }
}
#endif
