import Foundation

/// A model the default store's history records as inserted.
public struct DefaultHistoryInsert<Model>: HistoryInsert where Model: PersistentModel {
    public let changeIdentifier: Int64
    public let transactionIdentifier: Int64
    public let changedPersistentIdentifier: PersistentIdentifier
}

/// A model the default store's history records as updated, with the properties that changed.
public struct DefaultHistoryUpdate<Model>: HistoryUpdate where Model: PersistentModel {
    public let changeIdentifier: Int64
    public let transactionIdentifier: Int64
    public let changedPersistentIdentifier: PersistentIdentifier
    public let updatedAttributes: [any PartialKeyPath<Model> & Sendable]
}

/// A model the default store's history records as deleted, with its preserved values.
public struct DefaultHistoryDelete<Model>: HistoryDelete where Model: PersistentModel {
    public let changeIdentifier: Int64
    public let transactionIdentifier: Int64
    public let changedPersistentIdentifier: PersistentIdentifier
    public let tombstone: HistoryTombstone<Model>
}
