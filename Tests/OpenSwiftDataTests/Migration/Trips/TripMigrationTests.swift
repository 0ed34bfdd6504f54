import Foundation
import Testing
@testable import OpenSwiftData

extension MigrationTests {
    @Test func tripsGainUniqueNamesRenamedDatesAndCascadingDeletes() throws {
        let url = temporaryStoreURL()
        let day: TimeInterval = 86_400
        try writeStore(url, for: Schema(versionedSchema: TripsSchemaV1.self)) { context in
            let paris = TripsSchemaV1.Trip(name: "Paris", destination: "France", start_date: Date(timeIntervalSinceReferenceDate: 10 * day), end_date: Date(timeIntervalSinceReferenceDate: 12 * day))
            paris.bucketList = [TripsSchemaV1.BucketListItem(title: "Louvre"), TripsSchemaV1.BucketListItem(title: "Seine")]
            paris.livingAccommodation = TripsSchemaV1.LivingAccommodation(address: "Rue Cler")
            let again = TripsSchemaV1.Trip(name: "Paris", destination: "France", start_date: Date(timeIntervalSinceReferenceDate: 20 * day), end_date: Date(timeIntervalSinceReferenceDate: 21 * day))
            let kyoto = TripsSchemaV1.Trip(name: "Kyoto", destination: "Japan", start_date: Date(timeIntervalSinceReferenceDate: 30 * day), end_date: Date(timeIntervalSinceReferenceDate: 35 * day))
            kyoto.bucketList = [TripsSchemaV1.BucketListItem(title: "Fushimi Inari")]
            for trip in [paris, again, kyoto] { context.insert(trip) }
        }
        let container = try ModelContainer(for: Schema(versionedSchema: TripsSchemaV3.self), migrationPlan: TripsMigrationPlan.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<TripsSchemaV3.Trip>(sortBy: [SortDescriptor(\.startDate)]))
        #expect(trips.map(\.name) == ["Paris", "Kyoto"])
        #expect(trips[0].startDate == Date(timeIntervalSinceReferenceDate: 10 * day))
        #expect(trips[0].endDate == Date(timeIntervalSinceReferenceDate: 12 * day))
        #expect(Set((trips[0].bucketList ?? []).map(\.title)) == ["Louvre", "Seine"])
        #expect(trips[0].livingAccommodation?.address == "Rue Cler")
        #expect(trips[1].bucketList?.map(\.title) == ["Fushimi Inari"])

        // Unique names now upsert, and deleting a trip cascades to its items and lodging.
        context.insert(TripsSchemaV3.Trip(name: "Kyoto", destination: "Japan!", startDate: .now, endDate: .now))
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<TripsSchemaV3.Trip>()) == 2)
        context.delete(trips[0])
        try context.save()
        let reread = ModelContext(container)
        #expect(try reread.fetch(FetchDescriptor<TripsSchemaV3.BucketListItem>()).map(\.title) == ["Fushimi Inari"])
        #expect(try reread.fetchCount(FetchDescriptor<TripsSchemaV3.LivingAccommodation>()) == 0)
    }
}
