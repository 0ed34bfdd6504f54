import Foundation
import GRDB

/// `osd_decimal_add(a, b)`, `osd_decimal_subtract(a, b)`, `osd_decimal_multiply(a, b)` and
/// `osd_decimal_negate(a)`: `Decimal`'s own `+`, `-`, `*` and prefix `-` on values stored as
/// ``OrderedDecimalText``, giving the result in the same form, so that arithmetic on decimals
/// in a predicate computes in SQL exactly what `Predicate.evaluate` computes. `NULL` in gives
/// `NULL` out.
///
/// `osd_ordered_decimal(a)` rewrites a format-1 value (the `description` of a `Decimal`) in the
/// ordered form, checking that the new text reads back as the same value.
enum DecimalFunctions {
    static let add = "osd_decimal_add"
    static let subtract = "osd_decimal_subtract"
    static let multiply = "osd_decimal_multiply"
    static let negate = "osd_decimal_negate"
    static let ordered = "osd_ordered_decimal"

    static func install(in db: Database) {
        db.add(function: binary(add) { $0 + $1 })
        db.add(function: binary(subtract) { $0 - $1 })
        db.add(function: binary(multiply) { lhs, rhs in
            try checkProductIsInRange(lhs, rhs)
            return lhs * rhs
        })
        db.add(function: DatabaseFunction(negate, argumentCount: 1, pure: true) { arguments in
            try value(arguments[0]).map { OrderedDecimalText.text(for: -$0) }
        })
        db.add(function: DatabaseFunction(ordered, argumentCount: 1, pure: true) { arguments in
            guard let text = String.fromDatabaseValue(arguments[0]) else { return arguments[0] }
            guard let decimal = OrderedDecimalText.decimal(from: text) else {
                throw QueryFunctionError("the stored text \"\(text)\" is not a Decimal")
            }
            let ordered = OrderedDecimalText.text(for: decimal)
            guard let again = OrderedDecimalText.decimal(from: ordered), again == decimal || (again.isNaN && decimal.isNaN) else {
                throw QueryFunctionError("the Decimal \(decimal) (stored as \"\(text)\") does not read back from \"\(ordered)\"")
            }
            return ordered
        })
    }

    /// Refuses a product whose exponent falls below `Decimal`'s smallest (−128), for which
    /// Foundation's `*` stops the process (an exponent underflow it does not catch) where
    /// `Predicate.evaluate` would. The operands' exponents are taken without trailing zeros,
    /// as stored values have them.
    static func checkProductIsInRange(_ lhs: Decimal, _ rhs: Decimal) throws {
        guard !lhs.isNaN, !rhs.isNaN, !lhs.isZero, !rhs.isZero else { return }
        if OrderedDecimalText.trimmedDigits(of: lhs).exponent + OrderedDecimalText.trimmedDigits(of: rhs).exponent < Int(Int8.min) {
            throw QueryFunctionError(
                "\(lhs) * \(rhs) is smaller than the smallest Decimal; Foundation stops the process on it "
                    + "(Predicate.evaluate too), so the predicate was not run: guard the multiplication")
        }
    }

    private static func binary(_ name: String, _ operation: @escaping @Sendable (Decimal, Decimal) throws -> Decimal) -> DatabaseFunction {
        DatabaseFunction(name, argumentCount: 2, pure: true) { arguments in
            guard let lhs = try value(arguments[0]), let rhs = try value(arguments[1]) else { return nil }
            return OrderedDecimalText.text(for: try operation(lhs, rhs))
        }
    }

    private static func value(_ argument: DatabaseValue) throws -> Decimal? {
        guard !argument.isNull else { return nil }
        guard let text = String.fromDatabaseValue(argument), let decimal = OrderedDecimalText.decimal(from: text) else {
            throw QueryFunctionError("\(argument) is not a stored Decimal")
        }
        return decimal
    }
}
