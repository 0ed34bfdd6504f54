import Foundation
import OpenSwiftData
import Testing

// Entity, attribute and relationship names past PostgreSQL's 63-byte limit on identifiers: each
// store names them its own way (PostgreSQL shortens them, the same way every time), and every
// statement finds the table and columns that were created.

enum LongNamesV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [AWarehouseInventoryRecordWhoseClassNameRunsWellPastSixtyThreeBytes.self, AShelfLocationWithAnotherClassNameThatIsFarLongerThanPostgresAllows.self] }

    @Model final class AWarehouseInventoryRecordWhoseClassNameRunsWellPastSixtyThreeBytes {
        #Unique<AWarehouseInventoryRecordWhoseClassNameRunsWellPastSixtyThreeBytes>([\.stockKeepingUnitIdentifierAssignedByTheSupplierAtTimeOfPurchase])
        var stockKeepingUnitIdentifierAssignedByTheSupplierAtTimeOfPurchase: String
        var quantityCurrentlyAvailableForImmediateShipmentToWaitingCustomers: Int
        var theShelfLocationWhereThisRecordsItemsAreStoredInTheWarehouseBuilding: AShelfLocationWithAnotherClassNameThatIsFarLongerThanPostgresAllows?

        init(sku: String, quantity: Int) {
            stockKeepingUnitIdentifierAssignedByTheSupplierAtTimeOfPurchase = sku
            quantityCurrentlyAvailableForImmediateShipmentToWaitingCustomers = quantity
        }
    }

    @Model final class AShelfLocationWithAnotherClassNameThatIsFarLongerThanPostgresAllows {
        var aisle: String
        @Relationship(inverse: \AWarehouseInventoryRecordWhoseClassNameRunsWellPastSixtyThreeBytes.theShelfLocationWhereThisRecordsItemsAreStoredInTheWarehouseBuilding)
        var everyInventoryRecordKeptOnThisShelfLocationThroughoutTheWholeYear: [AWarehouseInventoryRecordWhoseClassNameRunsWellPastSixtyThreeBytes] = []

        init(aisle: String) { self.aisle = aisle }
    }
}

enum LongNamesV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [AWarehouseInventoryRecordWhoseClassNameRunsWellPastSixtyThreeBytes.self, AShelfLocationWithAnotherClassNameThatIsFarLongerThanPostgresAllows.self] }

    @Model final class AWarehouseInventoryRecordWhoseClassNameRunsWellPastSixtyThreeBytes {
        #Unique<AWarehouseInventoryRecordWhoseClassNameRunsWellPastSixtyThreeBytes>([\.stockKeepingUnitIdentifierAssignedByTheSupplierAtTimeOfPurchase])
        var stockKeepingUnitIdentifierAssignedByTheSupplierAtTimeOfPurchase: String
        var quantityCurrentlyAvailableForImmediateShipmentToWaitingCustomers: Int
        var theShelfLocationWhereThisRecordsItemsAreStoredInTheWarehouseBuilding: AShelfLocationWithAnotherClassNameThatIsFarLongerThanPostgresAllows?
        var aNoteAddedInTheSecondVersionWhoseNameIsAlsoLongerThanSixtyThreeBytes: String = "none"

        init(sku: String, quantity: Int) {
            stockKeepingUnitIdentifierAssignedByTheSupplierAtTimeOfPurchase = sku
            quantityCurrentlyAvailableForImmediateShipmentToWaitingCustomers = quantity
        }
    }

    @Model final class AShelfLocationWithAnotherClassNameThatIsFarLongerThanPostgresAllows {
        var aisle: String
        @Relationship(inverse: \AWarehouseInventoryRecordWhoseClassNameRunsWellPastSixtyThreeBytes.theShelfLocationWhereThisRecordsItemsAreStoredInTheWarehouseBuilding)
        var everyInventoryRecordKeptOnThisShelfLocationThroughoutTheWholeYear: [AWarehouseInventoryRecordWhoseClassNameRunsWellPastSixtyThreeBytes] = []

        init(aisle: String) { self.aisle = aisle }
    }
}

enum LongNamesPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [LongNamesV1.self, LongNamesV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: LongNamesV1.self, toVersion: LongNamesV2.self)] }
}

@Suite struct LongNameBehaviourTests {
    private typealias Record = LongNamesV1.AWarehouseInventoryRecordWhoseClassNameRunsWellPastSixtyThreeBytes
    private typealias Shelf = LongNamesV1.AShelfLocationWithAnotherClassNameThatIsFarLongerThanPostgresAllows

    @Test(arguments: Backend.available)
    func longNamesInsertUpdateUpsertDeleteQueryAndMigrate(_ backend: Backend) throws {
        let store = try backend.store(LongNamesV1.models)
        do {
            let context = ModelContext(try store.container())
            // One model alone: the single-row insert.
            context.insert(Record(sku: "A-1", quantity: 3))
            try context.save()
            let shelf = Shelf(aisle: "7")
            let second = Record(sku: "B-2", quantity: 5)
            second.theShelfLocationWhereThisRecordsItemsAreStoredInTheWarehouseBuilding = shelf
            context.insert(second)
            context.insert(Record(sku: "C-3", quantity: 0))
            try context.save()
        }
        do {
            let context = ModelContext(try store.container())
            // A predicate and a sort over the long names, and a to-many through them.
            let stocked = try context.fetch(FetchDescriptor<Record>(
                predicate: #Predicate { $0.quantityCurrentlyAvailableForImmediateShipmentToWaitingCustomers > 0 },
                sortBy: [SortDescriptor(\.quantityCurrentlyAvailableForImmediateShipmentToWaitingCustomers, order: .reverse)]))
            #expect(stocked.map(\.stockKeepingUnitIdentifierAssignedByTheSupplierAtTimeOfPurchase) == ["B-2", "A-1"])
            let shelved = try context.fetch(FetchDescriptor<Shelf>(
                predicate: #Predicate { !$0.everyInventoryRecordKeptOnThisShelfLocationThroughoutTheWholeYear.isEmpty }))
            #expect(shelved.map(\.aisle) == ["7"])
            // An update, an upsert of A-1 and a delete.
            stocked[0].quantityCurrentlyAvailableForImmediateShipmentToWaitingCustomers = 6
            context.insert(Record(sku: "A-1", quantity: 9))
            try context.delete(model: Record.self, where: #Predicate { $0.stockKeepingUnitIdentifierAssignedByTheSupplierAtTimeOfPurchase == "C-3" })
            try context.save()
        }
        do {
            let context = ModelContext(try store.container())
            let records = try context.fetch(FetchDescriptor<Record>(sortBy: [SortDescriptor(\.stockKeepingUnitIdentifierAssignedByTheSupplierAtTimeOfPurchase)]))
            #expect(records.map(\.stockKeepingUnitIdentifierAssignedByTheSupplierAtTimeOfPurchase) == ["A-1", "B-2"])
            #expect(records.map(\.quantityCurrentlyAvailableForImmediateShipmentToWaitingCustomers) == [9, 6])
            #expect(records[1].theShelfLocationWhereThisRecordsItemsAreStoredInTheWarehouseBuilding?.aisle == "7")
        }
        // A migration adding a column with a long name keeps every row and link.
        let migrated = try ModelContainer(
            for: Schema(versionedSchema: LongNamesV2.self), migrationPlan: LongNamesPlan.self, configurations: [store.configuration])
        let context = ModelContext(migrated)
        let records = try context.fetch(FetchDescriptor<LongNamesV2.AWarehouseInventoryRecordWhoseClassNameRunsWellPastSixtyThreeBytes>(
            sortBy: [SortDescriptor(\.stockKeepingUnitIdentifierAssignedByTheSupplierAtTimeOfPurchase)]))
        #expect(records.map(\.quantityCurrentlyAvailableForImmediateShipmentToWaitingCustomers) == [9, 6])
        #expect(records.map(\.aNoteAddedInTheSecondVersionWhoseNameIsAlsoLongerThanSixtyThreeBytes) == ["none", "none"])
        #expect(records[1].theShelfLocationWhereThisRecordsItemsAreStoredInTheWarehouseBuilding?.aisle == "7")
        records[0].aNoteAddedInTheSecondVersionWhoseNameIsAlsoLongerThanSixtyThreeBytes = "recounted"
        try context.save()
        let reread = try ModelContext(migrated).fetch(FetchDescriptor<LongNamesV2.AWarehouseInventoryRecordWhoseClassNameRunsWellPastSixtyThreeBytes>(
            predicate: #Predicate { $0.aNoteAddedInTheSecondVersionWhoseNameIsAlsoLongerThanSixtyThreeBytes == "recounted" }))
        #expect(reread.map(\.stockKeepingUnitIdentifierAssignedByTheSupplierAtTimeOfPurchase) == ["A-1"])
    }
}
