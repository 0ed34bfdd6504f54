import Foundation
import GRDB

/// The rows of a store in Core Data's SQLite layout, read from its copy (``AppleStoreFile``):
/// what an import reads of it. Values come as they are stored (``StoredValue``); what they
/// mean is the caller's to decide from the store's model.
///
/// Valid only inside the ``read(_:_:)`` call that made it.
package struct AppleStoreTables {
    private let db: Database
    private let storeURL: URL
    /// What ``AppleStoreInspection`` says of the store.
    package let inspection: AppleStoreInspection

    /// Calls `body` with the tables of the store at `url`, read from a copy of it and the files
    /// beside it; the store is left as it is.
    package static func read<T>(_ url: URL, _ body: (AppleStoreTables) throws -> T) throws -> T {
        try AppleStoreFile.readCopy(of: url) { db in
            try body(AppleStoreTables(db: db, storeURL: url, inspection: AppleStoreReader.inspect(db, url: url)))
        }
    }

    /// The column a property of the store's model is kept in (`startDate` → `ZSTARTDATE`), when
    /// the table of `entity` has it; `nil` for a property kept in no column of it (a transient
    /// attribute, a to-many relationship).
    package func column(of property: String, in entity: AppleStoreInspection.Entity) -> String? {
        let column = AppleStoreReader.columnName(of: property)
        return hasColumn(column, of: entity) ? column : nil
    }

    /// Whether the table of `entity` has `column`.
    package func hasColumn(_ column: String, of entity: AppleStoreInspection.Entity) -> Bool {
        entity.columns.contains { $0.name == column }
    }

    /// Calls `body` with each row of exactly `entity` (not of its subentities), in key order:
    /// its key (`Z_PK`) and the values of `columns`, in order.
    package func forEachRow(
        of entity: AppleStoreInspection.Entity, columns: [String], _ body: (Int64, [StoredValue]) throws -> Void
    ) throws {
        let selected = (["Z_PK"] + columns).map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        let rows = try Row.fetchCursor(
            db, sql: "SELECT \(selected) FROM \(entity.table.quotedDatabaseIdentifier) WHERE Z_ENT = ? ORDER BY Z_PK",
            arguments: [entity.number])
        while let row = try rows.next() {
            try body(row[0], (0..<columns.count).map { StoredValue(row[$0 + 1] as DatabaseValue) })
        }
    }

    /// The keys (`Z_PK`) of every row of `table`.
    package func keys(in table: String) throws -> Set<Int64> {
        Set(try Int64.fetchAll(db, sql: "SELECT Z_PK FROM \(table.quotedDatabaseIdentifier)"))
    }

    /// The number of rows of exactly `entity` whose `column` is `NULL` (`holdingValue` false) or
    /// is not.
    package func count(of entity: AppleStoreInspection.Entity, column: String, holdingValue: Bool) throws -> Int {
        try Int.fetchOne(
            db, sql: "SELECT count(*) FROM \(entity.table.quotedDatabaseIdentifier) WHERE Z_ENT = ? AND \(column.quotedDatabaseIdentifier) IS \(holdingValue ? "NOT " : "")NULL",
            arguments: [entity.number]) ?? 0
    }

    /// Whether every value of `column` in the rows of exactly `entity` is a reference to a value
    /// kept in the row or in a file (``externalValue(_:)``'s tags), and there is at least one:
    /// what a binary attribute with external storage holds, which the model cache does not say.
    package func holdsOnlyExternalReferences(_ entity: AppleStoreInspection.Entity, column: String) throws -> Bool {
        let name = column.quotedDatabaseIdentifier
        let row = try Row.fetchOne(db, sql: """
            SELECT count(*), sum(CASE WHEN typeof(\(name)) = 'blob' AND (substr(\(name), 1, 1) = x'01'
                OR (substr(\(name), 1, 1) = x'02' AND length(\(name)) BETWEEN 37 AND 38)) THEN 0 ELSE 1 END)
            FROM \(entity.table.quotedDatabaseIdentifier) WHERE Z_ENT = ? AND \(name) IS NOT NULL
            """, arguments: [entity.number])
        let values: Int = row?[0] ?? 0
        let others: Int = row?[1] ?? 0
        return values > 0 && others == 0
    }

    /// The values of `columns` that more than one row of the entities numbered `entities` (a
    /// class and its subclasses, sharing a table) hold, with how many rows hold each; rows
    /// with a `NULL` among them left out, as a unique index leaves them. At most `limit`.
    package func repeatedValues(
        in table: String, entities: [Int], columns: [String], limit: Int = 3
    ) throws -> [(values: [StoredValue], rows: Int)] {
        let names = columns.map(\.quotedDatabaseIdentifier)
        let sql = """
            SELECT \(names.joined(separator: ", ")), count(*) FROM \(table.quotedDatabaseIdentifier)
            WHERE Z_ENT IN (\(entities.map(String.init).joined(separator: ", "))) AND \(names.map { "\($0) IS NOT NULL" }.joined(separator: " AND "))
            GROUP BY \(names.joined(separator: ", ")) HAVING count(*) > 1 LIMIT \(limit)
            """
        return try Row.fetchAll(db, sql: sql).map { row in
            ((0..<columns.count).map { StoredValue(row[$0] as DatabaseValue) }, row[columns.count])
        }
    }

    /// The join table of a many-to-many relationship: the one with a column of keys of one side
    /// named after `name` and one of the other side named after `inverse`
    /// (`Z_<entity number><NAME>`, which may end in a number when two relationships share a
    /// name); with which column holds the keys of the models that have the relationship.
    package func joinTable(relationship name: String, inverse: String) -> (table: String, ownerColumn: String, memberColumn: String)? {
        func column(named relationship: String, in table: AppleStoreInspection.JoinTable) -> String? {
            table.columns.map(\.name).first { column in
                guard column.hasPrefix("Z_"), !column.hasPrefix("Z_FOK_") else { return false }
                let rest = column.dropFirst(2).drop(while: \.isNumber)
                return rest.count < column.count - 2 && rest.uppercased() == "\(relationship.uppercased())"
            }
        }
        for table in inspection.joinTables {
            // The keys of the owners sit in the column named after the relationship pointing at
            // them (the inverse); the members' in the one named after this relationship.
            guard let owners = column(named: inverse, in: table), let members = column(named: name, in: table), owners != members else { continue }
            return (table.name, owners, members)
        }
        return nil
    }

    /// The pairs of keys a join table holds, as (owner, member), in the order a to-many
    /// relationship lists its members: by `Z_FOK_` order column when the table has one, by key
    /// otherwise.
    package func pairs(inJoinTable table: String, ownerColumn: String, memberColumn: String) throws -> [(owner: Int64, member: Int64)] {
        let columns = inspection.joinTables.first { $0.name == table }?.columns.map(\.name) ?? []
        let order = columns.first { $0 == "Z_FOK_\(ownerColumn.dropFirst(2))" }.map { "\($0.quotedDatabaseIdentifier), " } ?? ""
        return try Row.fetchAll(
            db, sql: "SELECT \(ownerColumn.quotedDatabaseIdentifier), \(memberColumn.quotedDatabaseIdentifier) FROM \(table.quotedDatabaseIdentifier) ORDER BY \(ownerColumn.quotedDatabaseIdentifier), \(order)\(memberColumn.quotedDatabaseIdentifier)"
        ).compactMap { row in
            guard let owner = row[0] as Int64?, let member = row[1] as Int64? else { return nil }
            return (owner, member)
        }
    }

    /// The bytes of a binary attribute with external storage, given the column's value: a
    /// first byte of 1 followed by the bytes themselves, or 2 followed by the name of a file in
    /// the store's `.<store name>_SUPPORT/_EXTERNAL_DATA` folder. `nil` for any other value.
    package func externalValue(_ stored: Data) throws -> Data? {
        guard let tag = stored.first else { return nil }
        switch tag {
        case 1:
            return Data(stored.dropFirst())
        case 2:
            let name = String(decoding: stored.dropFirst().prefix { $0 != 0 }, as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            guard !name.isEmpty, !name.contains("/") else { return nil }
            let file = AppleStoreReader.externalDataFolder(of: storeURL).appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: file.path) else {
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "the file \(file.path), which holds a value kept outside the store, is missing")
            }
            return try Data(contentsOf: file)
        default:
            return nil
        }
    }
}
