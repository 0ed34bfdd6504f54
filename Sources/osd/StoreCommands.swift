import ArgumentParser
import Foundation
import OpenSwiftData
import OpenSwiftDataPostgres

// The store tool: look inside a store, compare, check, copy and export it. Every command reads
// the store's own recorded schema (no model code is needed) and, except `restore`, never
// writes to the store. Exit codes: 0 success, 1 a difference or a problem found, 2 an error.

/// Prints `value` as pretty, sorted JSON.
private func printJSON(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}

/// Runs `body`, turning an OpenSwiftData error into its explanation on standard error and exit
/// code 2.
private func reportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as SwiftDataError {
        FileHandle.standardError.write(Data("osd: \(error.explanation ?? "\(error)")\n".utf8))
        throw ExitCode(2)
    }
}

private func byteCount(_ bytes: Int) -> String {
    ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .file)
}

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a store's version, entities, indices, row counts, files, backups and migration history.")

    @Argument(help: "The store file, or a PostgreSQL database as postgres://user:password@host:port/database.") var store: String
    @Option(help: "For a PostgreSQL store: the PostgreSQL schema its tables live in.") var databaseSchema = "public"
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        try reportingErrors {
            if PostgresConfiguration.named(store, databaseSchema: databaseSchema) == nil, AppleStoreInspection.isAppleStore(at: URL(fileURLWithPath: store)) {
                return try printAppleStore(AppleStoreInspection(storeAt: URL(fileURLWithPath: store)))
            }
            let inspection = try PostgresConfiguration.named(store, databaseSchema: databaseSchema).map(PostgresStore.inspection(of:))
                ?? StoreInspection(storeAt: URL(fileURLWithPath: store))
            if json { return try printJSON(inspection) }
            print("Store \(inspection.path)")
            print("Version \(inspection.version), fingerprint \(inspection.fingerprint)")
            for entity in inspection.entities {
                let kind = entity.superentity.map { " (a subclass of \($0))" } ?? ""
                print("\n\(entity.name)\(kind): \(entity.rows) row\(entity.rows == 1 ? "" : "s")")
                for attribute in entity.attributes {
                    var traits = [attribute.type + (attribute.isOptional ? "?" : "")]
                    if attribute.isUnique { traits.append("unique") }
                    if let value = attribute.defaultValue { traits.append("default \(value)") }
                    if attribute.isExternal { traits.append("external storage") }
                    print("  \(attribute.name): \(traits.joined(separator: ", "))")
                }
                for relationship in entity.relationships {
                    let inverse = relationship.inverse.map { ", inverse \($0)" } ?? ""
                    print("  \(relationship.name) → \(relationship.isToMany ? "[\(relationship.destination)]" : relationship.destination)\(inverse), delete rule \(relationship.deleteRule)")
                }
                for index in entity.indices {
                    print("  index \(index.name) on \(index.columns.joined(separator: ", "))\(index.isUnique ? " (unique)" : "")")
                }
            }
            if !inspection.foreignObjects.isEmpty {
                print("\nSchema objects OpenSwiftData did not make (a container refuses the store while they are there):")
                for object in inspection.foreignObjects { print("  \(object)") }
            }
            if !inspection.files.isEmpty { print("\nFiles:") }
            for file in inspection.files { print("  \(file.path)  \(byteCount(file.bytes))") }
            for file in inspection.backups { print("  \(file.path)  \(byteCount(file.bytes))  (backup)") }
            print(inspection.history.isEmpty ? "\nNo migrations recorded." : "\nMigrations:")
            for record in inspection.history {
                print("  \(record.appliedAt.formatted(.iso8601))  \(record.fromVersion) → \(record.toVersion)  \(record.kind), \(record.rowsChanged) row change(s), \(record.milliseconds) ms")
            }
            print("\nPersistent history: \(inspection.historyTransactions) transaction(s), \(inspection.historyChanges) change(s) (osd history lists them).")
        }
    }

    /// A store Apple's SwiftData or Core Data wrote, as its tables show it.
    private func printAppleStore(_ inspection: AppleStoreInspection) throws {
        if json { return try printJSON(inspection) }
        print("Store \(store): written by Apple's SwiftData or Core Data (Core Data's SQLite layout); read from a copy, the store is left as it is")
        print("Store identifier \(inspection.storeIdentifier ?? "none"), type \(inspection.storeType ?? "unknown")")
        print("Model versions: \(inspection.versionIdentifiers.isEmpty ? "none recorded" : inspection.versionIdentifiers.joined(separator: ", "))")
        for entity in inspection.entities {
            let kind = entity.superentity.map { ", a subentity of \($0)" } ?? ""
            let hash = inspection.versionHashes[entity.name].map { ", version hash \($0.prefix(8).map { String(format: "%02x", $0) }.joined())…" } ?? ""
            print("\n\(entity.name) (entity \(entity.number), table \(entity.table)\(kind)\(hash)): \(entity.rows) row\(entity.rows == 1 ? "" : "s")")
            if let modelEntity = inspection.model?.first(where: { $0.name == entity.name }) {
                let inherited = Set(inspection.model?.first { $0.name == modelEntity.superentity }.map { $0.attributes.map(\.name) + $0.relationships.map(\.name) } ?? [])
                for attribute in modelEntity.attributes where !inherited.contains(attribute.name) {
                    let transformer = attribute.transformerName.map { ", transformer \($0)" } ?? ""
                    print("  \(attribute.name): \(attribute.type)\(attribute.isOptional ? "?" : "")\(transformer)  (column Z\(attribute.name.uppercased()))")
                }
                for relationship in modelEntity.relationships where !inherited.contains(relationship.name) {
                    let inverse = relationship.inverse.map { ", inverse \($0)" } ?? ""
                    let destination = relationship.isToMany ? "[\(relationship.destination)]" : relationship.destination + (relationship.isOptional ? "?" : "")
                    print("  \(relationship.name) → \(destination)\(inverse), delete rule \(relationship.deleteRule)\(relationship.isOrdered ? ", ordered" : "")")
                }
            } else {
                for column in entity.columns where !["Z_PK", "Z_ENT", "Z_OPT"].contains(column.name) {
                    print("  \(column.name) \(column.declaredType)")
                }
            }
        }
        if !inspection.joinTables.isEmpty { print("\nJoin tables (many-to-many):") }
        for table in inspection.joinTables {
            print("  \(table.name) (\(table.columns.map(\.name).joined(separator: ", "))): \(table.rows) row\(table.rows == 1 ? "" : "s")")
        }
        if let history = inspection.history {
            print("\nPersistent history: \(history.transactions) transaction(s), \(history.changes) change(s).")
        } else {
            print("\nNo persistent history.")
        }
        print("External data files: \(inspection.externalDataFiles)")
        if let problem = inspection.modelProblem {
            print("Model cache (Z_MODELCACHE): kept, but not read: \(problem); the entities above show their tables' columns")
        } else {
            print("Model cache (Z_MODELCACHE): \(inspection.model != nil ? "kept, read: the entities above show the model it holds" : "none; the entities above show their tables' columns")")
        }
    }
}

struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List a store's persistent history: each save's transaction, who made it, and its changes.")

    @Argument(help: "The store file.") var store: String
    @Option(help: "List only the transactions after this transaction number.") var since: Int64?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        try reportingErrors {
            let history = try StoreInspection.persistentHistory(ofStoreAt: URL(fileURLWithPath: store), since: since)
            if json { return try printJSON(history) }
            if history.isEmpty { print("No transactions\(since.map { " after \($0)" } ?? "").") }
            for transaction in history {
                let author = transaction.author.map { " by \($0)" } ?? ""
                print("\(transaction.transaction)  \(transaction.timestamp.formatted(.iso8601))\(author)  (\(transaction.bundleIdentifier), process \(transaction.processIdentifier))")
                for change in transaction.changes { print("  \(change)") }
            }
        }
    }
}

struct Snapshot: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a store's recorded schema as a frozen snapshot (the format of SchemaMigrationPlan.verify(snapshotsIn:)).")

    @Argument(help: "The store file, or a PostgreSQL database as postgres://user:password@host:port/database?schema=name.") var store: String
    @Option(name: .shortAndLong, help: "The snapshot file to write, such as SchemaSnapshots/1.0.0.json.") var output: String

    func run() throws {
        try reportingErrors {
            let schema = try PostgresConfiguration.named(store).map(PostgresStore.recordedSchema(of:))
                ?? StoreInspection.recordedSchema(ofStoreAt: URL(fileURLWithPath: store))
            try schema.save(to: URL(fileURLWithPath: output))
            print("Wrote the schema of version \(schema.version) to \(output)")
        }
    }
}

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare two stores or snapshot files as a migration would; exit code 1 when they differ.")

    @Argument(help: "The first store or snapshot (the older); a PostgreSQL store as postgres://…/database?schema=name.") var first: String
    @Argument(help: "The second store or snapshot (the newer).") var second: String
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        var comparison: SchemaComparison?
        try reportingErrors {
            comparison = SchemaComparison(from: try Self.schema(first), to: try Self.schema(second), defaulted: try Self.defaulted(second))
        }
        guard let comparison else { return }
        if json {
            try printJSON(comparison)
        } else if comparison.isIdentical {
            print("Same structure.")
        } else {
            for change in comparison.changes { print(change) }
            print(comparison.isLightweight ? "\nA lightweight migration can make these changes."
                  : "\nNot lightweight:\n" + comparison.blockers.map { "  \($0)" }.joined(separator: "\n"))
            print(comparison.keepsPreviousVersionRunning
                  ? "During a rolling deploy, servers still running the older version keep working (every change is an expand step)."
                  : "During a rolling deploy, servers still running the older version break:\n" + comparison.breaksPreviousVersion.map { "  \($0)" }.joined(separator: "\n"))
        }
        if !comparison.isIdentical { throw ExitCode(1) }
    }

    /// The attributes of a store whose columns have a default ("Entity.attribute"); none for a
    /// snapshot, which records no defaults.
    private static func defaulted(_ path: String) throws -> Set<String> {
        guard URL(fileURLWithPath: path).pathExtension != "json", PostgresConfiguration.named(path) == nil else { return [] }
        let inspection = try StoreInspection(storeAt: URL(fileURLWithPath: path))
        return Set(inspection.entities.flatMap { entity in
            entity.attributes.filter { $0.defaultValue != nil }.map { "\(entity.name).\($0.name)" }
        })
    }

    /// The schema a snapshot file holds, or a store records.
    private static func schema(_ path: String) throws -> Schema {
        if let postgres = PostgresConfiguration.named(path) { return try PostgresStore.recordedSchema(of: postgres) }
        let url = URL(fileURLWithPath: path)
        if url.pathExtension == "json" {
            do {
                return try Schema.load(from: url)
            } catch {
                throw ValidationError("\(path) is not a schema snapshot: \(error)")
            }
        }
        return try StoreInspection.recordedSchema(ofStoreAt: url)
    }
}

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run SQLite's integrity and foreign-key checks and OpenSwiftData's own; exit code 1 when a problem is found.")

    @Argument(help: "The store file, or a PostgreSQL database as postgres://user:password@host:port/database.") var store: String
    @Option(help: "For a PostgreSQL store: the PostgreSQL schema its tables live in.") var databaseSchema = "public"
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        var problems: [String] = []
        var isAppleStore = false
        try reportingErrors {
            let url = URL(fileURLWithPath: store)
            isAppleStore = PostgresConfiguration.named(store, databaseSchema: databaseSchema) == nil && AppleStoreInspection.isAppleStore(at: url)
            problems = try PostgresConfiguration.named(store, databaseSchema: databaseSchema).map(PostgresStore.problems(of:))
                ?? (isAppleStore ? AppleStoreInspection.problems(inStoreAt: url) : StoreInspection.problems(inStoreAt: url))
        }
        if json {
            try printJSON(["problems": problems])
        } else {
            let kind = isAppleStore ? " (a store written by Apple's SwiftData or Core Data, checked from a copy)" : ""
            print(problems.isEmpty ? "\(store)\(kind): no problem found." : problems.joined(separator: "\n"))
        }
        if !problems.isEmpty { throw ExitCode(1) }
    }
}

struct Backup: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy a store, consistently even while other processes write to it.")

    @Argument(help: "The store file.") var store: String
    @Argument(help: "The copy to write (must not exist).") var destination: String

    func run() throws {
        try reportingErrors {
            let bar = ProgressBar()
            try StoreFiles.backup(storeAt: URL(fileURLWithPath: store), to: URL(fileURLWithPath: destination)) { fraction in
                bar.show(fraction, "copied")
            }
            bar.end()
            print("Backed up \(store) to \(destination)")
        }
    }
}

struct Restore: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replace a store with a backup, refusing a store in use or newer than the backup unless --force.")

    @Argument(help: "The backup file.") var backup: String
    @Argument(help: "The store to replace.") var store: String
    @Flag(help: "Replace the store even when it is in use or newer than the backup.") var force = false

    func run() throws {
        var problems: [String] = []
        try reportingErrors {
            problems = try StoreFiles.restore(backupAt: URL(fileURLWithPath: backup), to: URL(fileURLWithPath: store), force: force)
        }
        print(problems.isEmpty ? "Restored \(backup) to \(store); the restored store checks out."
              : "Restored \(backup) to \(store), but it has problems:\n" + problems.joined(separator: "\n"))
        if !problems.isEmpty { throw ExitCode(1) }
    }
}

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a store's rows as JSON lines or CSV, streaming (a store Apple's SwiftData wrote too).")

    @Argument(help: "The store file, or a PostgreSQL database as postgres://user:password@host:port/database.") var store: String
    @Option(help: "For a PostgreSQL store: the PostgreSQL schema its tables live in.") var databaseSchema = "public"
    @Option(help: "The entity to export (every entity when omitted; CSV needs one).") var entity: String?
    @Option(help: "json (one object per line) or csv.") var format: String = "json"

    func run() throws {
        guard let format = StoreExport.Format(rawValue: format) else {
            throw ValidationError("--format is json or csv")
        }
        if let postgres = PostgresConfiguration.named(store, databaseSchema: databaseSchema) {
            return try reportingErrors {
                var buffer = Data()
                try PostgresStore.export(postgres, entity: entity, format: format) { line in
                    buffer.append(contentsOf: line.utf8)
                    if buffer.count >= 1 << 16 {
                        FileHandle.standardOutput.write(buffer)
                        buffer.removeAll(keepingCapacity: true)
                    }
                }
                FileHandle.standardOutput.write(buffer)
            }
        }
        if AppleStoreInspection.isAppleStore(at: URL(fileURLWithPath: store)) {
            return try reportingErrors {
                var buffer = Data()
                try StoreExport.export(appleStoreAt: URL(fileURLWithPath: store), entity: entity, format: format) { line in
                    buffer.append(contentsOf: line.utf8)
                    if buffer.count >= 1 << 16 {
                        FileHandle.standardOutput.write(buffer)
                        buffer.removeAll(keepingCapacity: true)
                    }
                }
                FileHandle.standardOutput.write(buffer)
            }
        }
        try reportingErrors {
            let url = URL(fileURLWithPath: store)
            let total = try StoreInspection(storeAt: url).entities.filter { entity == nil || $0.name == entity }.map(\.rows).reduce(0, +)
            // The rows go to standard output; the progress, for large exports, to standard error.
            let bar = total >= 100_000 ? ProgressBar(onStandardError: true) : nil
            var buffer = Data()
            var rows = 0
            try StoreExport.export(storeAt: url, entity: entity, format: format) { line in
                buffer.append(contentsOf: line.utf8)
                rows += 1
                if buffer.count >= 1 << 16 {
                    FileHandle.standardOutput.write(buffer)
                    buffer.removeAll(keepingCapacity: true)
                    bar?.show(Double(rows) / Double(max(total, 1)), "\(rows)/\(total) rows exported")
                }
            }
            FileHandle.standardOutput.write(buffer)
            bar?.show(1, "\(total)/\(total) rows exported")
            bar?.end()
        }
    }
}

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Bring a store Apple's SwiftData wrote into a new OpenSwiftData store, with the model it keeps; checked value by value, the Apple store left as it is.",
        discussion: """
            Each Core Data type becomes the Swift type SwiftData keeps that way (Integer 64 Int, Binary Data Data, …). \
            Values whose Swift type only the app's models know (Codable ones) need the import with the app's models, \
            AppleStoreImport(storeAt:schema:) in the app; here they are refused unless --drop names them. \
            Exit codes: 0 imported (or, with --dry-run, the import can run), 1 refused, 2 an error.
            """)

    @Argument(help: "The store Apple's SwiftData or Core Data wrote (default.store).") var appleStore: String
    @Argument(help: "Where to write the new OpenSwiftData store (no file may be there).") var newStore: String?
    @Option(name: .customLong("drop"), help: "What may be left behind: an entity, or Entity.property; repeatable.") var drops: [String] = []
    @Flag(help: "Leave behind everything that cannot be brought over, without naming it.") var dropUnmapped = false
    @Flag(help: "Print what the import would do; write nothing.") var dryRun = false

    func run() throws {
        let importing = AppleStoreImport(storeAt: URL(fileURLWithPath: appleStore), dropping: Set(drops), dropsEverythingUnmapped: dropUnmapped)
        if dryRun {
            var plan: AppleStoreImport.Plan?
            try reportingErrors { plan = try importing.plan() }
            guard let plan else { return }
            print(plan)
            if !plan.canImport { throw ExitCode(1) }
            return
        }
        guard let newStore else { throw ValidationError("name the new store to write, or ask for --dry-run") }
        if PostgresConfiguration.named(newStore, databaseSchema: "public") != nil {
            throw ValidationError("osd import writes an SQLite store file; import into a file, then open it with the app's models")
        }
        try reportingErrors {
            do {
                print(try importing.importStore(to: URL(fileURLWithPath: newStore)))
            } catch let error as SwiftDataError where (error.explanation ?? "").contains("cannot be imported without losing data") {
                FileHandle.standardError.write(Data("osd: \(error.explanation ?? "\(error)")\n".utf8))
                throw ExitCode(1)
            }
        }
    }
}
