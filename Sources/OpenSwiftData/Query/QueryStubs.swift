// TEMPORARY: replaced by the predicate translator; lets the rest build meanwhile.
import Foundation
import GRDB

struct SQLFragment { var sql: String; var arguments: [DatabaseValue] }
struct ResolvedColumn { let sql: String; let codec: ValueCodec }
protocol ColumnResolving { func column(for keyPath: AnyKeyPath) -> ResolvedColumn? }
enum PredicateTranslator {
    static func sql<T>(for predicate: Predicate<T>, columns: some ColumnResolving) throws -> SQLFragment {
        throw SwiftDataError.unsupportedPredicate.explaining("stub")
    }
}
enum SortTranslator {
    static func sql<T>(for sortDescriptors: [SortDescriptor<T>], columns: some ColumnResolving) throws -> String {
        throw SwiftDataError.unsupportedSortDescriptor.explaining("stub")
    }
}
enum QueryFunctions { static func install(in db: Database) {} }
