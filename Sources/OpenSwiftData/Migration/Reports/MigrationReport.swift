import Foundation

/// What a migration did to one store, or, in a ``MigrationPreview``, what it would do: the
/// store's version before and after, and for each step its SQL, the rows the plan's code
/// changed, the values it dropped, and the refusal that stopped it, if one did.
///
/// A container keeps the reports of the migrations it ran as it opened
/// (``ModelContainer/migrationReports``); ``ModelContainer/previewMigration(for:migrationPlan:configurations:)-(PersistentModel....,_,_)``
/// and ``MigrationTester`` return them for migrations run on copies.
///
/// ```swift
/// let container = try ModelContainer(for: Schema(versionedSchema: SchemaV3.self), migrationPlan: Plan.self)
/// for report in container.migrationReports {
///     print(report)   // the steps, their SQL, rows changed and values dropped
/// }
/// ```
public struct MigrationReport: Sendable, CustomStringConvertible {
    /// The store file migrated (for a preview or a tester, the copy).
    public let storeURL: URL
    /// The version the store recorded before the migration.
    public let storeVersion: String
    /// The version the migration brings the store to.
    public let targetVersion: String
    /// The steps, in order; those run before a refusal, when one stopped the migration.
    public package(set) var steps: [Step] = []
    /// Why the migration was refused or failed, with what to do; `nil` when it went through.
    public package(set) var refusal: String?
    /// The copy of the store taken before the migration, if one was.
    public package(set) var backupURL: URL?

    /// Whether the migration went through (or, in a preview, would).
    public var succeeded: Bool { refusal == nil }

    package init(storeURL: URL, storeVersion: String, targetVersion: String) {
        self.storeURL = storeURL
        self.storeVersion = storeVersion
        self.targetVersion = targetVersion
    }

    /// One step of a migration: from one version's structure to the next.
    public struct Step: Sendable {
        /// How a step changes the store.
        public enum Kind: String, Sendable {
            /// Only the structure changes, by rules: no code of the plan's runs.
            case lightweight
            /// A custom stage: the plan's `willMigrate` and `didMigrate` run around the change.
            case custom
        }

        /// The version the step starts from.
        public let fromVersion: String
        /// The version the step brings the store to.
        public let toVersion: String
        public let kind: Kind
        /// The SQL the step ran to change the tables (the plan's own saves are not listed).
        public package(set) var sql: [String] = []
        /// The rows the plan's code (a custom stage's closures) inserted, updated and deleted,
        /// by entity; for the step that brings a store to the current format, the rows it
        /// rewrote.
        public package(set) var rowChanges: [RowChanges] = []
        /// The attributes the step drops, with how many stored values they held.
        public package(set) var droppedAttributes: [DroppedAttribute] = []
        /// The entities the step drops, with how many rows they held.
        public package(set) var droppedEntities: [DroppedEntity] = []
        /// Unique constraints the step adds that stored rows break: the step is refused.
        public package(set) var uniqueConflicts: [UniqueConflict] = []
        /// How long the step took, in milliseconds.
        public package(set) var milliseconds: Int = 0

        package init(fromVersion: String, toVersion: String, kind: Kind) {
            self.fromVersion = fromVersion
            self.toVersion = toVersion
            self.kind = kind
        }
    }

    /// The rows of one entity that a stage's code changed.
    public struct RowChanges: Sendable, Equatable {
        public let entity: String
        public package(set) var inserted: Int
        public package(set) var updated: Int
        public package(set) var deleted: Int
    }

    /// An attribute (or relationship) a step drops, and the values stored there.
    public struct DroppedAttribute: Sendable, Equatable {
        public let entity: String
        public let attribute: String
        /// How many rows held a value (not `nil`) there.
        public let storedValues: Int

        package init(entity: String, attribute: String, storedValues: Int) {
            self.entity = entity
            self.attribute = attribute
            self.storedValues = storedValues
        }
    }

    /// An entity a step drops, and its rows.
    public struct DroppedEntity: Sendable, Equatable {
        public let entity: String
        public let rows: Int

        package init(entity: String, rows: Int) {
            self.entity = entity
            self.rows = rows
        }
    }

    /// A unique constraint and stored values that repeat under it.
    public struct UniqueConflict: Sendable, Equatable {
        public let entity: String
        /// The attributes the constraint covers.
        public let attributes: [String]
        /// The repeated values (at most five), with how many rows hold each.
        public let repetitions: [Repetition]

        /// Values of the constraint's attributes, as SQL literals, that several rows hold.
        public struct Repetition: Sendable, Equatable {
            public let values: [String]
            public let rows: Int

            package init(values: [String], rows: Int) {
                self.values = values
                self.rows = rows
            }
        }

        package init(entity: String, attributes: [String], repetitions: [Repetition]) {
            self.entity = entity
            self.attributes = attributes
            self.repetitions = repetitions
        }
    }

    public var description: String {
        var lines = ["Migration of \(storeURL.path): \(storeVersion) → \(targetVersion), \(steps.count) step\(steps.count == 1 ? "" : "s")"]
        for (index, step) in steps.enumerated() {
            lines.append("  \(index + 1). \(step.fromVersion) → \(step.toVersion) (\(step.kind.rawValue), \(step.milliseconds) ms)")
            for sql in step.sql {
                lines.append("     SQL: \(sql.replacingOccurrences(of: "\n", with: " "))")
            }
            for change in step.rowChanges {
                lines.append("     \(change.entity): \(change.inserted) inserted, \(change.updated) updated, \(change.deleted) deleted by the stage's code")
            }
            for dropped in step.droppedEntities {
                lines.append("     drops entity \(dropped.entity) with its \(dropped.rows) row\(dropped.rows == 1 ? "" : "s")")
            }
            for dropped in step.droppedAttributes {
                lines.append("     drops \(dropped.entity).\(dropped.attribute) with its \(dropped.storedValues) stored value\(dropped.storedValues == 1 ? "" : "s")")
            }
            for conflict in step.uniqueConflicts {
                let values = conflict.repetitions.map { "(\($0.values.joined(separator: ", "))) in \($0.rows) rows" }
                lines.append("     unique \(conflict.entity).\(conflict.attributes.joined(separator: "+")) rejects: \(values.joined(separator: "; "))")
            }
        }
        if let backupURL { lines.append("  backup: \(backupURL.path)") }
        if let refusal {
            lines.append("  REFUSED: \(refusal.replacingOccurrences(of: "\n", with: "\n  "))")
        } else {
            lines.append("  succeeded")
        }
        return lines.joined(separator: "\n")
    }
}
