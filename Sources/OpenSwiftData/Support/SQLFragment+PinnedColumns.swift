extension SQLFragment {
    /// The columns of `table` this condition sets to one bound value whatever else it says:
    /// those of `table.column = value` tests standing directly in its top-level `AND`s (never
    /// under `OR`, `NOT` or a subquery). A row meets the condition only with those values.
    func columnsEqualToArguments(of table: String) -> Set<String> {
        Self.pinned(Self.tokens(parts)[...], table: table)
    }

    /// A part's place in the condition's shape: text split at spaces and parentheses.
    private enum Token: Equatable {
        case word(String)
        case identifier(String)
        case argument
        /// A call, a test, a collated expression: nothing pins a column through it.
        case opaque
    }

    private static func tokens(_ parts: [Part]) -> [Token] {
        var tokens: [Token] = []
        for part in parts {
            switch part {
            case .text(let text):
                var word = ""
                for character in text {
                    if character == " " || character == "(" || character == ")" {
                        if !word.isEmpty { tokens.append(.word(word)) }
                        word = ""
                        if character != " " { tokens.append(.word(String(character))) }
                    } else {
                        word.append(character)
                    }
                }
                if !word.isEmpty { tokens.append(.word(word)) }
            case .identifier(let name): tokens.append(.identifier(name))
            case .argument: tokens.append(.argument)
            case .call, .test, .collated, .order: tokens.append(.opaque)
            }
        }
        return tokens
    }

    private static func pinned(_ tokens: ArraySlice<Token>, table: String) -> Set<String> {
        var tokens = tokens
        // Parentheses around the whole condition.
        while tokens.first == .word("("), tokens.last == .word(")"), closes(tokens) {
            tokens = tokens.dropFirst().dropLast()
        }
        var conjuncts: [ArraySlice<Token>] = []
        var depth = 0, start = tokens.startIndex
        for index in tokens.indices {
            switch tokens[index] {
            case .word("("): depth += 1
            case .word(")"): depth -= 1
            case .word(let word) where depth == 0 && word.uppercased() == "AND":
                conjuncts.append(tokens[start..<index])
                start = index + 1
            default: break
            }
        }
        if !conjuncts.isEmpty {
            conjuncts.append(tokens[start...])
            return conjuncts.reduce(into: []) { $0.formUnion(pinned($1, table: table)) }
        }
        // `table.column = value`, either way round.
        let test = Array(tokens)
        guard test.count == 5 else { return [] }
        let (column, equality) = test[0] == .argument ? (test[2...], [test[1], test[0]]) : (test[..<3], [test[3], test[4]])
        guard equality == [.word("="), .argument], column.first == .identifier(table), column.dropFirst().first == .word("."),
              case .identifier(let name)? = column.last
        else { return [] }
        return [name]
    }

    /// Whether the first token, an opening parenthesis, is closed by the last.
    private static func closes(_ tokens: ArraySlice<Token>) -> Bool {
        var depth = 0
        for (offset, token) in tokens.enumerated() {
            if token == .word("(") { depth += 1 }
            if token == .word(")") { depth -= 1 }
            if depth == 0 { return offset == tokens.count - 1 }
        }
        return false
    }
}
