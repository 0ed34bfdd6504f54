import Foundation
import GRDB

/// Brings a store of format 1, which held each `Decimal` as its `description` (text SQL cannot
/// compare or sort as numbers), to format 2, which holds it as ``OrderedDecimalText``: every
/// decimal column of the recorded schema is rewritten in place by `osd_ordered_decimal`, which
/// refuses a value that would not read back the same. It runs as the first step of a migration
/// (in its transaction, under the store's write lock, reported like the others); a store that
/// records no decimal attribute is the same in both formats and needs no step.
enum DecimalTextUpgrade {
    /// The format whose stores hold decimals in order.
    static let formatVersion = 2

    /// Whether a store recording `metadata` and the entities of `recorded` must be rewritten
    /// before SQL may compare its decimals.
    static func isNeeded(_ metadata: StoreMetadata, recorded: [Schema.Entity]) -> Bool {
        metadata.formatVersion < formatVersion && !columns(of: recorded).isEmpty
    }

    /// The columns holding decimals, as (table, column); values kept outside the table
    /// (`.externalStorage`) are read in either form and never compared in SQL.
    static func columns(of entities: [Schema.Entity]) -> [(table: String, column: String)] {
        entities.flatMap { entity in
            entity.attributesInOrder
                .filter { $0.storageType == .decimal && !$0.options.contains(.externalStorage) }
                .map { (entity.name, $0.name) }
        }
    }

    /// Rewrites the decimal columns of `entities` in `db`'s transaction; returns the SQL run.
    static func run(on entities: [Schema.Entity], in db: Database) throws -> [String] {
        try columns(of: entities).map { table, column in
            let name = column.quotedDatabaseIdentifier
            let sql = "UPDATE \(table.quotedDatabaseIdentifier) SET \(name) = \(DecimalFunctions.ordered)(\(name)) WHERE \(name) IS NOT NULL"
            do {
                try db.execute(sql: sql)
            } catch let error as DatabaseError {
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "the Decimal values of \(table).\(column) could not be rewritten in the ordered form of store format \(formatVersion): \(error.message ?? "\(error)"); the migration was rolled back and the store is as it was")
            }
            return sql
        }
    }
}
