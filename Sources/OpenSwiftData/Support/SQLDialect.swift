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
    /// The SQL computing `function` over `arguments` (each already rendered, in order), or
    /// `nil` when the database cannot compute it.
    func call(_ function: SQLFunction, _ arguments: [String]) -> String?
    /// `expression` (rendered) ordered by `collation`, for an `ORDER BY`, or `nil` when the
    /// database cannot order so.
    func collated(_ expression: String, by collation: SQLCollation) -> String?
    /// `ASC` or `DESC` such that `NULL` comes first ascending, as Swift orders `nil`.
    func order(ascending: Bool) -> String
    /// A condition the database can run that is true wherever the test `function` over
    /// `arguments` is (and maybe elsewhere), for a function ``call(_:_:)`` lacks; `nil` when
    /// the dialect knows none better than `TRUE`.
    func superset(of function: SQLFunction, _ arguments: [SQLFragment]) -> SQLFragment?
    /// A condition the database can run that is true only where the test is (maybe not
    /// everywhere it is); `nil` when the dialect knows none better than `FALSE`.
    func subset(of function: SQLFunction, _ arguments: [SQLFragment]) -> SQLFragment?
}

extension SQLDialect {
    package func superset(of function: SQLFunction, _ arguments: [SQLFragment]) -> SQLFragment? { nil }
    package func subset(of function: SQLFunction, _ arguments: [SQLFragment]) -> SQLFragment? { nil }
}

extension SQLFragment {
    /// The fragment's SQL in `dialect`, its placeholders numbered from `firstPlaceholder`;
    /// `nil` when it needs a function or collation the dialect lacks.
    package func rendered(in dialect: some SQLDialect, firstPlaceholder: Int = 1) -> String? {
        var placeholder = firstPlaceholder
        return rendered(in: dialect, placeholder: &placeholder)
    }

    /// The fragment's SQL, numbering its placeholders from `placeholder` on, in the order of
    /// ``boundValues``.
    private func rendered(in dialect: some SQLDialect, placeholder: inout Int) -> String? {
        var sql = ""
        for part in parts {
            switch part {
            case .text(let text): sql += text
            case .identifier(let name): sql += dialect.identifier(name)
            case .argument(_, let storage):
                sql += dialect.placeholder(placeholder, storage: storage)
                placeholder += 1
            case .test(.condition, let arguments, _):
                guard let condition = arguments[0].rendered(in: dialect, placeholder: &placeholder) else { return nil }
                sql += condition
            case .call(let function, let arguments), .test(let function, let arguments, _):
                var rendered: [String] = []
                for argument in arguments {
                    guard let text = argument.rendered(in: dialect, placeholder: &placeholder) else { return nil }
                    rendered.append(text)
                }
                guard let call = dialect.call(function, rendered) else { return nil }
                sql += call
            case .collated(let expression, let collation):
                guard let text = expression.rendered(in: dialect, placeholder: &placeholder),
                      let collated = dialect.collated(text, by: collation)
                else { return nil }
                sql += collated
            case .order(let ascending): sql += dialect.order(ascending: ascending)
            }
        }
        return sql
    }

    /// Whether `dialect` can run the fragment: it has every function and collation it calls.
    package func runs(in dialect: some SQLDialect) -> Bool {
        missing(in: dialect).isEmpty
    }

    /// The functions and collations the fragment calls that `dialect` lacks, for messages.
    package func missing(in dialect: some SQLDialect) -> [String] {
        parts.flatMap { part -> [String] in
            switch part {
            case .test(.condition, let arguments, _):
                return arguments[0].missing(in: dialect)
            case .call(let function, let arguments), .test(let function, let arguments, _):
                let own = dialect.call(function, arguments.map { _ in "" }) == nil ? [function.rawValue] : []
                return own + arguments.flatMap { $0.missing(in: dialect) }
            case .collated(let expression, let collation):
                let own = dialect.collated("", by: collation) == nil ? ["the \(collation.rawValue) collation"] : []
                return own + expression.missing(in: dialect)
            default: return []
            }
        }
    }
}

extension SQLFragment {
    /// The condition as `dialect` can run it, erring toward `bound`: each test the dialect
    /// lacks replaced by the dialect's ``SQLDialect/superset(of:_:)`` where the condition
    /// follows the test (its ``SQLDialect/subset(of:_:)`` where it goes against it; the other
    /// way round toward a subset); `nil` when something the dialect lacks stands where neither
    /// can replace it.
    ///
    /// A fetch the dialect cannot run exactly reads the rows of the superset and lets Swift
    /// decide each: the invariant is that it never drops a row the exact condition keeps.
    package func narrowed(in dialect: some SQLDialect, toward bound: SQLBound) -> SQLFragment? {
        var result = SQLFragment(parts: [])
        for part in parts {
            let alone = SQLFragment(parts: [part])
            if alone.runs(in: dialect) {
                result.append(alone)
                continue
            }
            guard case .test(let function, let arguments, let polarity) = part, polarity != .none else { return nil }
            // Where an argument does not run, the dialect has nothing to narrow the test by.
            let argumentsRun = arguments.allSatisfy { $0.runs(in: dialect) }
            switch polarity == .positive ? bound : bound.opposite {
            case .superset: result.append((argumentsRun ? dialect.superset(of: function, arguments) : nil) ?? "TRUE")
            case .subset: result.append((argumentsRun ? dialect.subset(of: function, arguments) : nil) ?? "FALSE")
            }
        }
        return result
    }
}

/// The SQL of messages: names quoted, `?` placeholders, functions and collations by their own
/// names.
struct ReadableSQL: SQLDialect {
    func identifier(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
    func placeholder(_ number: Int, storage: StorageType?) -> String { "?" }
    func call(_ function: SQLFunction, _ arguments: [String]) -> String? {
        "\(function.rawValue)(\(arguments.joined(separator: ", ")))"
    }
    func collated(_ expression: String, by collation: SQLCollation) -> String? { "\(expression) COLLATE \(collation.rawValue)" }
    func order(ascending: Bool) -> String { ascending ? "ASC" : "DESC" }
}
