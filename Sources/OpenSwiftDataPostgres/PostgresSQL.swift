import OpenSwiftData
import PostgresNIO

/// The Query layer's SQL in PostgreSQL's dialect. The Query layer writes SQL both databases
/// read alike (`IS NOT DISTINCT FROM`, `TRUE`, quoted names, `?` placeholders in order); what
/// differs is turned here:
///
/// - each `?` becomes `$n`, bound as the type of the column its value was encoded for (a `Bool`
///   as `boolean`, a `UUID` as `uuid`, a `Decimal` as `numeric`);
/// - a quoted name over 63 bytes becomes its shortened form (``PostgresNames``), as the
///   tables were created;
/// - `ASC` is `ASC NULLS FIRST` and `DESC` is `DESC NULLS LAST`: SQLite's order, and Swift's,
///   which sorts `nil` first;
/// - SQL calling a function only OpenSwiftData's SQLite connections have (`osd_…`, which run
///   Swift's own string and number semantics, and SQLite's JSON and `instr`) cannot run: the
///   context answers such a fetch in memory.
enum PostgresSQL {
    /// The functions and collations PostgreSQL lacks, by name; and any named `osd_…`.
    private static let sqliteOnly: Set<String> = ["json_each", "json_array_length", "instr", "glob", "printf", "ifnull", "iif"]

    /// Whether `sql` calls nothing PostgreSQL lacks.
    static func canRun(_ sql: String) -> Bool {
        rewritten(sql, firstPlaceholder: 1) != nil
    }

    /// `sql` with `$n` placeholders numbered from `firstPlaceholder` (each cast as
    /// `placeholders` says, by position) and long names shortened; `nil` when it calls a
    /// function PostgreSQL lacks.
    static func rewritten(_ sql: String, firstPlaceholder: Int, casts: [StorageType?] = []) -> String? {
        var result = ""
        result.reserveCapacity(sql.utf8.count + 16)
        var placeholder = 0
        var index = sql.startIndex
        while index < sql.endIndex {
            let character = sql[index]
            switch character {
            case "\"":
                // A quoted name: up to the closing quote that is not doubled.
                var name = ""
                var end = sql.index(after: index)
                while end < sql.endIndex {
                    if sql[end] == "\"" {
                        let next = sql.index(after: end)
                        if next < sql.endIndex, sql[next] == "\"" {
                            name.append("\"")
                            end = sql.index(after: next)
                            continue
                        }
                        break
                    }
                    name.append(sql[end])
                    end = sql.index(after: end)
                }
                result += PostgresNames.quoted(name)
                index = end < sql.endIndex ? sql.index(after: end) : end
            case "'":
                // A string constant, copied as it is.
                var end = sql.index(after: index)
                while end < sql.endIndex {
                    if sql[end] == "'" {
                        let next = sql.index(after: end)
                        if next < sql.endIndex, sql[next] == "'" {
                            end = sql.index(after: next)
                            continue
                        }
                        break
                    }
                    end = sql.index(after: end)
                }
                let stop = end < sql.endIndex ? sql.index(after: end) : end
                result += sql[index..<stop]
                index = stop
            case "?":
                let storage = placeholder < casts.count ? casts[placeholder] : nil
                result += storage.map { PostgresValues.placeholder(firstPlaceholder + placeholder, for: $0) } ?? "$\(firstPlaceholder + placeholder)"
                placeholder += 1
                index = sql.index(after: index)
            case _ where character.isLetter || character == "_":
                var end = sql.index(after: index)
                while end < sql.endIndex, sql[end].isLetter || sql[end].isNumber || sql[end] == "_" { end = sql.index(after: end) }
                let word = sql[index..<end]
                let lowered = word.lowercased()
                if lowered.hasPrefix("osd_") || sqliteOnly.contains(lowered) { return nil }
                result += word
                // SQLite orders NULL first, as Swift orders nil; PostgreSQL last unless told.
                if lowered == "asc" { result += " NULLS FIRST" } else if lowered == "desc" { result += " NULLS LAST" }
                index = end
            default:
                result.append(character)
                index = sql.index(after: index)
            }
        }
        return result
    }

    /// A fragment's SQL for PostgreSQL, with its arguments appended to `binds`.
    ///
    /// - Throws: ``SwiftDataError/unsupportedPredicate`` when the fragment calls a function
    ///   PostgreSQL lacks (callers check ``canRun(_:)`` first); the NUL refusal of
    ///   ``PostgresValues/bind(_:as:into:attribute:entity:)``.
    static func render(_ fragment: SQLFragment, into binds: inout PostgresBindings, entity: String) throws -> String {
        guard let sql = rewritten(fragment.sql, firstPlaceholder: binds.count + 1, casts: fragment.argumentStorage) else {
            throw SwiftDataError.unsupportedPredicate.explaining(
                "the condition on \(entity) calls a function only SQLite stores have, so PostgreSQL cannot run it: \(fragment.sql)")
        }
        for (value, storage) in zip(fragment.storedArguments, fragment.argumentStorage) {
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
