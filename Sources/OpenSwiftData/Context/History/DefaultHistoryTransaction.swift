import Foundation

/// A transaction of a store's history, as the default store records it.
public struct DefaultHistoryTransaction: HistoryTransaction {
    public typealias TokenType = DefaultHistoryToken
    public typealias TransactionIdentifier = Int64

    /// The transaction's number in its store.
    public let id: Int64
    public let timestamp: Date
    public let changes: [HistoryChange]
    public let token: DefaultHistoryToken
    public var transactionIdentifier: Int64 { id }
    public let storeIdentifier: String
    /// The bundle identifier of the app that saved (its executable's name where it has none).
    public let bundleIdentifier: String
    /// The identifier of the process that saved.
    public let processIdentifier: String
    public let author: String?

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.id == rhs.id && lhs.storeIdentifier == rhs.storeIdentifier
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(storeIdentifier)
    }
}

/// A point in a container's history: for each store, the number of the last transaction it
/// covers. `Codable`, so an app keeps it in a file and fetches what came after it.
public struct DefaultHistoryToken: HistoryToken, StoredAsInteger {
    public typealias TokenType = [String: Int64]

    /// The transaction number, by store identifier.
    public let tokenValue: [String: Int64]?

    public var id: Int { hashValue }

    init(storeIdentifier: String, transaction: Int64) {
        tokenValue = [storeIdentifier: transaction]
    }

    init(transactions: [String: Int64]) {
        tokenValue = transactions
    }

    /// The identifier of the store the token covers; for a token covering several stores (a
    /// save's, when it changed more than one), the first of their identifiers in order.
    public var storeIdentifier: String {
        tokenValue?.keys.min() ?? ""
    }

    /// The transaction number the token gives `storeIdentifier`: -1 when it has none (the
    /// token comes before every transaction of that store).
    func transaction(in storeIdentifier: String) -> Int64 {
        tokenValue?[storeIdentifier] ?? -1
    }

    /// Tokens compare store by store, in the order of the stores' identifiers.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        let stores = Set((lhs.tokenValue ?? [:]).keys).union((rhs.tokenValue ?? [:]).keys).sorted()
        for store in stores where lhs.transaction(in: store) != rhs.transaction(in: store) {
            return lhs.transaction(in: store) < rhs.transaction(in: store)
        }
        return false
    }
}
