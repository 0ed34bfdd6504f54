import Foundation

/// The columns of a store's history transactions that predicates and sorts on
/// `DefaultHistoryTransaction` name: the token and transaction identifier are the transaction's
/// number, the store identifier the store's own (a constant).
struct HistoryColumns: ColumnResolving {
    let storeIdentifier: String
    /// The transaction numbers of the tokens the predicate compares with, as they are bound:
    /// the fetch checks them against what `deleteHistory` removed.
    let tokensCompared = TokensCompared()

    final class TokensCompared: @unchecked Sendable {
        private(set) var numbers: [Int64] = []
        func note(_ number: Int64) { numbers.append(number) }
    }

    func column(for keyPath: AnyKeyPath) -> ResolvedColumn? {
        switch keyPath {
        case \DefaultHistoryTransaction.token:
            let store = storeIdentifier
            let compared = tokensCompared
            let codec = ValueCodec.integer(DefaultHistoryToken.self, write: { token in
                let number = token.transaction(in: store)
                compared.note(number)
                return number
            }) {
                DefaultHistoryToken(storeIdentifier: store, transaction: $0)
            }
            return ResolvedColumn(sql: StoreHistory.Column.id.sql, codec: codec, name: "token")
        case \DefaultHistoryTransaction.transactionIdentifier, \DefaultHistoryTransaction.id:
            return ResolvedColumn(sql: StoreHistory.Column.id.sql, codec: ValueCodec.forType(Int64.self)!, name: "transactionIdentifier")
        case \DefaultHistoryTransaction.timestamp:
            return ResolvedColumn(sql: StoreHistory.Column.timestamp.sql, codec: ValueCodec.forType(Date.self)!, name: "timestamp")
        case \DefaultHistoryTransaction.author:
            return ResolvedColumn(sql: StoreHistory.Column.author.sql, codec: ValueCodec.forType(String?.self)!, name: "author")
        case \DefaultHistoryTransaction.bundleIdentifier:
            return ResolvedColumn(sql: StoreHistory.Column.bundle.sql, codec: ValueCodec.forType(String.self)!, name: "bundleIdentifier")
        case \DefaultHistoryTransaction.processIdentifier:
            return ResolvedColumn(sql: StoreHistory.Column.process.sql, codec: ValueCodec.forType(String.self)!, name: "processIdentifier")
        case \DefaultHistoryTransaction.storeIdentifier:
            return ResolvedColumn(sql: StoreHistory.constant(storeIdentifier), codec: ValueCodec.forType(String.self)!, name: "storeIdentifier")
        default:
            return nil
        }
    }
}
