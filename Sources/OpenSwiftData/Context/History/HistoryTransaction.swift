import Foundation

/// A store's record of one save: when, by whom, and what it changed.
public protocol HistoryTransaction: Hashable, Identifiable, Sendable {
    associatedtype TokenType: Comparable, Hashable, Identifiable, Sendable
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable

    /// When the save committed.
    var timestamp: Date { get }
    /// The save's changes, in the order it made them.
    var changes: [HistoryChange] { get }
    /// The point in the history just after this transaction: fetch the transactions after it
    /// with `#Predicate { $0.token > token }`.
    var token: TokenType { get }
    var transactionIdentifier: TransactionIdentifier { get }
    /// The store the transaction changed.
    var storeIdentifier: String { get }
    /// The saving context's ``ModelContext/author``.
    var author: String? { get }
}

/// A point in a container's history: a transaction number per store. Keep it (it is `Codable`)
/// and fetch what came after it.
public protocol HistoryToken: Comparable, Codable, Hashable, Identifiable, Sendable {
    associatedtype TokenType: Codable, Hashable, Sendable
    var tokenValue: TokenType? { get }
}

extension HistoryToken {
    /// The identifier of the store the token covers; empty for a token type that does not say.
    public var storeIdentifier: String {
        (self as? DefaultHistoryToken)?.storeIdentifier ?? ""
    }
}
