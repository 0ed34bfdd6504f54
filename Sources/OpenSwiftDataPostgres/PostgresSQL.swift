import OpenSwiftData
import PostgresNIO

/// The Query layer's SQL fragments as PostgreSQL statements: rendered through
/// ``PostgresDialect``, their values appended to the statement's bindings.
enum PostgresSQL {
    /// Whether PostgreSQL has every function and collation `fragment` calls.
    static func canRun(_ fragment: SQLFragment) -> Bool {
        fragment.runs(in: PostgresDialect())
    }

    /// A fragment's SQL for PostgreSQL, its placeholders numbered after those already in
    /// `binds`, with its arguments appended to `binds`.
    ///
    /// - Throws: ``SwiftDataError/unsupportedPredicate`` when the fragment calls a function
    ///   PostgreSQL lacks (callers check ``canRun(_:)`` first); the NUL refusal of
    ///   ``PostgresValues/bind(_:as:into:attribute:entity:)``.
    static func render(_ fragment: SQLFragment, into binds: inout PostgresBindings, entity: String) throws -> String {
        guard let sql = fragment.rendered(in: PostgresDialect(), firstPlaceholder: binds.count + 1) else {
            throw SwiftDataError.unsupportedPredicate.explaining(
                "the query on \(entity) needs \(fragment.missing(in: PostgresDialect()).joined(separator: ", ")), which only SQLite stores have, so PostgreSQL cannot run it: \(fragment)")
        }
        for (value, storage) in fragment.boundValues {
            try bind(value, storage: storage, into: &binds, entity: entity)
        }
        return sql
    }

    /// Appends an argument, as its column's type when known, else as its own kind.
    static func bind(_ value: StoredValue, storage: StorageType?, into binds: inout PostgresBindings, entity: String) throws {
        if let storage {
            try PostgresValues.bind(value, as: storage, into: &binds, attribute: "a value compared in a predicate", entity: entity)
            return
        }
        switch value {
        case .null: binds.appendNull()
        case .integer(let int): binds.append(int)
        case .real(let double): binds.append(double)
        case .text(let text): try PostgresValues.bind(value, as: .string, into: &binds, attribute: "a value compared in a predicate (\(text.prefix(20)))", entity: entity)
        case .blob(let data): try binds.append(data)
        }
    }
}
