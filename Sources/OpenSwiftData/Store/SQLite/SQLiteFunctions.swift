import Foundation
import GRDB

/// The SQL functions and collations an SQLite store's queries call (``SQLiteDialect`` names
/// them), installed on every connection a store or a migration opens; the DocC article
/// Predicates lists what each computes.
///
/// Each calls the same Swift code that evaluates the predicate or the sort in memory, so SQL
/// and `Predicate.evaluate` / `sorted(using:)` agree by construction: keep it so. A function
/// whose result follows the locale is registered as non-deterministic, and no index may use a
/// collation, since an index's order must never change.
enum SQLiteFunctions {
    static let localizedStandardContainsFunction = "osd_localized_standard_contains"
    static let localizedCompareFunction = "osd_localized_compare"
    static let caseInsensitiveCompareFunction = "osd_case_insensitive_compare"
    static let characterCount = "osd_character_count"
    static let roundToFloat = "osd_float"
    static let realDivide = "osd_real_divide"
    static let unwrap = "osd_unwrap"
    static let invalidRange = "osd_invalid_range"

    static let stringOrderCollation = "osd_string_order"
    static let lexicalCollation = "osd_lexical"
    static let localizedStandardCollation = "osd_localized_standard"
    static let localizedCollation = "osd_localized"

    static func install(in db: Database) {
        CharacterSubstringFunctions.install(in: db)
        DecimalFunctions.install(in: db)
        db.add(function: stringFunction(localizedStandardContainsFunction, pure: false) { string, other in
            StringSemantics.localizedStandardContains(string, other)
        })
        db.add(function: stringFunction(localizedCompareFunction, pure: false) { string, other in
            StringSemantics.localizedCompare(string, other).rawValue
        })
        db.add(function: stringFunction(caseInsensitiveCompareFunction, pure: true) { string, other in
            StringSemantics.caseInsensitiveCompare(string, other).rawValue
        })
        db.add(function: DatabaseFunction(characterCount, argumentCount: 1, pure: true) { arguments in
            text(arguments[0])?.count
        })
        db.add(function: DatabaseFunction(roundToFloat, argumentCount: 1, pure: true) { arguments in
            Double.fromDatabaseValue(arguments[0]).map { Double(Float($0)) }
        })
        db.add(function: DatabaseFunction(realDivide, argumentCount: 2, pure: true) { arguments in
            guard let dividend = Double.fromDatabaseValue(arguments[0]),
                  let divisor = Double.fromDatabaseValue(arguments[1])
            else { return nil }
            let quotient = dividend / divisor
            if quotient.isNaN {
                throw QueryFunctionError(
                    "\(dividend) / \(divisor) is NaN, which SQLite cannot represent; "
                        + "guard the division in the predicate")
            }
            return quotient
        })
        db.add(function: DatabaseFunction(unwrap, argumentCount: 1, pure: false) { arguments in
            if arguments[0].isNull {
                throw QueryFunctionError(
                    "a value force-unwrapped with ! in the predicate is nil for this row "
                        + "(Predicate.evaluate throws PredicateError.forceUnwrapFailure)")
            }
            return arguments[0]
        })
        db.add(function: DatabaseFunction(invalidRange, argumentCount: 2, pure: false) { arguments in
            throw QueryFunctionError(
                "a range in the predicate has a lower bound (\(arguments[0])) above its upper bound "
                    + "(\(arguments[1])) for this row (Predicate.evaluate throws)")
        })

        db.add(collation: DatabaseCollation(stringOrderCollation) { lhs, rhs in
            StringSemantics.storedOrder(lhs, rhs)
        })
        db.add(collation: DatabaseCollation(lexicalCollation) { lhs, rhs in
            #if canImport(Darwin)
            String.StandardComparator.lexical.compare(lhs, rhs)
            #else
            // Foundation's `.lexical` here is String's `<` (no difference in 200,000 random
            // pairs), with the same pairs that are no order; the stores order those by NFC.
            StringSemantics.storedOrder(lhs, rhs)
            #endif
        })
        db.add(collation: DatabaseCollation(localizedStandardCollation) { lhs, rhs in
            StringSemantics.localizedStandardCompare(lhs, rhs)
        })
        db.add(collation: DatabaseCollation(localizedCollation) { lhs, rhs in
            StringSemantics.localizedCompare(lhs, rhs)
        })
    }

    /// A two-argument function of strings that is NULL when either argument is.
    private static func stringFunction(
        _ name: String, pure: Bool, _ body: @escaping @Sendable (String, String) -> any DatabaseValueConvertible
    ) -> DatabaseFunction {
        DatabaseFunction(name, argumentCount: 2, pure: pure) { arguments in
            guard let string = text(arguments[0]), let other = text(arguments[1]) else { return nil }
            return body(string, other)
        }
    }

    /// The text of a TEXT argument, or of a BLOB holding UTF-8.
    private static func text(_ value: DatabaseValue) -> String? {
        switch value.storage {
        case .string(let string): string
        case .blob(let data): String(decoding: data, as: UTF8.self)
        default: nil
        }
    }
}

/// A failure inside one of the ``SQLiteFunctions``; SQLite reports it as the statement's error.
struct QueryFunctionError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
