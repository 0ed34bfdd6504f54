import Foundation

/// Whether a `RawRepresentable` type's `<` is the order SQLite gives its stored raw values.
///
/// Swift synthesizes `Comparable` only for enums *without* raw values (by case order), so a
/// raw-valued enum that is `Comparable` has a hand-written `<`. SQL can only order by the
/// stored raw value; these checks make sure that is the same order before a predicate or a
/// sort relies on it.
enum RawValueOrdering {
    /// `true` when every pair of cases orders alike in Swift and in SQLite, `false` when some
    /// pair does not, `nil` when the type is not `CaseIterable` and so cannot be checked.
    static func agrees<V: Comparable>(_ type: V.Type) -> Bool? {
        guard let iterable = V.self as? any CaseIterable.Type,
              let codec = ValueCodec.forType(V.self)
        else { return nil }
        let cases = allCases(of: iterable).compactMap { $0 as? V }
        let stored = cases.map { try? codec.encode($0) }
        for i in cases.indices {
            for j in cases.indices where i != j {
                guard let a = stored[i], let b = stored[j], let sqlOrder = sqliteOrders(a, before: b) else {
                    return false
                }
                if (cases[i] < cases[j]) != sqlOrder { return false }
            }
        }
        return true
    }

    private static func allCases<C: CaseIterable>(of type: C.Type) -> [Any] {
        C.allCases.map { $0 as Any }
    }

    /// Whether SQLite's default (BINARY) ordering puts `a` before `b`; nil for values of
    /// different storage classes, which raw values of one type never are.
    static func sqliteOrders(_ a: StoredValue, before b: StoredValue) -> Bool? {
        switch (a, b) {
        case (.integer(let x), .integer(let y)): x < y
        case (.real(let x), .real(let y)): x < y
        case (.integer(let x), .real(let y)): Double(x) < y
        case (.real(let x), .integer(let y)): x < Double(y)
        case (.text(let x), .text(let y)): x.utf8.lexicographicallyPrecedes(y.utf8)
        case (.blob(let x), .blob(let y)): x.lexicographicallyPrecedes(y)
        default: nil
        }
    }
}
