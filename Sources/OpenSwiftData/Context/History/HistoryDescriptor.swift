import Foundation

/// Which history transactions to fetch (or delete), in what order, and how many.
///
/// ```swift
/// let descriptor = HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > lastToken })
/// let transactions = try context.fetchHistory(descriptor)
/// ```
public struct HistoryDescriptor<TransactionType> where TransactionType: HistoryTransaction {
    /// The transactions to take; every one when `nil`.
    public var predicate: Predicate<TransactionType>?
    /// At most this many transactions; `0` for no limit.
    public var fetchLimit: UInt64 = 0
    /// The order, after which transactions come in the order they committed.
    public var sortBy: [SortDescriptor<TransactionType>] = []

    public init(predicate: Predicate<TransactionType>? = nil) {
        self.predicate = predicate
    }

    public init(predicate: Predicate<TransactionType>? = nil, sortBy: [SortDescriptor<TransactionType>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}
