import Foundation
import OpenSwiftData
import Testing

/// A model with a unique attribute, for the history of inserts that may or may not meet a
/// stored row.
@Model final class Airport {
    @Attribute(.unique) var code: String
    var city: String
    init(code: String, city: String) {
        self.code = code
        self.city = city
    }
}

@Model final class Gate {
    var number: Int
    init(number: Int) { self.number = number }
}

@Suite struct HistoryOfUniqueInsertsTests {
    /// Keys are counted per table: a new airport can get the key a gate just got in the same
    /// save. It is still a new row, recorded as an insert, not taken for an upsert that
    /// changed nothing (which recorded nothing, and a sync reading history never saw it).
    @Test func anInsertGivenTheKeyAnotherTableJustUsedIsRecordedAsAnInsert() throws {
        let container = try ModelContainer(for: Airport.self, Gate.self, configurations: ModelConfiguration(url: temporaryStoreURL()))
        let context = ModelContext(container)
        context.insert(Airport(code: "LIS", city: "Lisbon"))
        try context.save()
        context.insert(Gate(number: 1))
        try context.save()
        // The gate just got key 2 of its table; this airport gets key 2 of its own.
        context.insert(Gate(number: 2))
        context.insert(Airport(code: "OPO", city: "Porto"))
        try context.save()
        // And an insert that does meet a stored row is an update of what it changed.
        context.insert(Airport(code: "LIS", city: "Lisboa"))
        try context.save()

        let changes = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).map { transaction in
            transaction.changes.map { change -> String in
                switch change {
                case .insert(let insert): "insert \(insert.changedPersistentIdentifier.entityName)"
                case .update(let update): "update \(update.changedPersistentIdentifier.entityName)"
                case .delete(let delete): "delete \(delete.changedPersistentIdentifier.entityName)"
                }
            }.sorted()
        }
        #expect(changes == [["insert Airport"], ["insert Gate"], ["insert Airport", "insert Gate"], ["update Airport"]])
        #expect(try context.fetch(FetchDescriptor<Airport>(sortBy: [SortDescriptor(\.code)])).map(\.city) == ["Lisboa", "Porto"])
    }
}
