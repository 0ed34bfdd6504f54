/// How a store's database spells what ``SQLFragment`` leaves open: names, placeholders, the
/// functions and collations that differ per database, and how NULL sorts.
///
/// Each store has one; the Query layer never writes a database's own spelling.
package protocol SQLDialect {
    /// `name` quoted, and shortened where the database limits names.
    func identifier(_ name: String) -> String
    /// The placeholder of the `number`th bound value of a statement (from 1), whose column
    /// stores values as `storage` when known.
    func placeholder(_ number: Int, storage: StorageType?) -> String
    /// The SQL calling `function`'s name, or `nil` when the database cannot compute it.
    func function(_ function: SQLFunction) -> String?
    /// The name after `COLLATE` for `collation`, or `nil` when the database has none.
    func collation(_ collation: SQLCollation) -> String?
    /// `ASC` or `DESC` such that `NULL` comes first ascending, as Swift orders `nil`.
    func order(ascending: Bool) -> String
}

extension SQLFragment {
    /// The fragment's SQL in `dialect`, its placeholders numbered from `firstPlaceholder`;
    /// `nil` when it needs a function or collation the dialect lacks.
    package func rendered(in dialect: some SQLDialect, firstPlaceholder: Int = 1) -> String? {
        var sql = ""
        var placeholder = firstPlaceholder
        for part in parts {
            switch part {
            case .text(let text): sql += text
            case .identifier(let name): sql += dialect.identifier(name)
            case .argument(_, let storage):
                sql += dialect.placeholder(placeholder, storage: storage)
                placeholder += 1
            case .function(let function):
                guard let name = dialect.function(function) else { return nil }
                sql += name
            case .collation(let collation):
                guard let name = dialect.collation(collation) else { return nil }
                sql += name
            case .order(let ascending): sql += dialect.order(ascending: ascending)
            }
        }
        return sql
    }

    /// Whether `dialect` can run the fragment: it has every function and collation it calls.
    package func runs(in dialect: some SQLDialect) -> Bool {
        parts.allSatisfy { part in
            switch part {
            case .function(let function): dialect.function(function) != nil
            case .collation(let collation): dialect.collation(collation) != nil
            default: true
            }
        }
    }

    /// The functions and collations the fragment calls that `dialect` lacks, for messages.
    package func missing(in dialect: some SQLDialect) -> [String] {
        parts.compactMap { part in
            switch part {
            case .function(let function): dialect.function(function) == nil ? function.rawValue : nil
            case .collation(let collation): dialect.collation(collation) == nil ? "the \(collation.rawValue) collation" : nil
            default: nil
            }
        }
    }
}

/// The SQL of messages: names quoted, `?` placeholders, functions and collations by their own
/// names.
struct ReadableSQL: SQLDialect {
    func identifier(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
    func placeholder(_ number: Int, storage: StorageType?) -> String { "?" }
    func function(_ function: SQLFunction) -> String? { function.rawValue }
    func collation(_ collation: SQLCollation) -> String? { collation.rawValue }
    func order(ascending: Bool) -> String { ascending ? "ASC" : "DESC" }
}
