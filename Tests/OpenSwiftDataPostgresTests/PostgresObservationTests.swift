import Foundation
import OpenSwiftData
import OpenSwiftDataPostgres
import Testing
import TestSupport

/// Observing a PostgreSQL store: a ResultsObserver hears another context's saves; a read-only
/// configuration refuses saves.
@MainActor @Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL: \(PostgresTestServer.unavailableReason)"))
struct PostgresObservationTests {
    @Test func aResultsObserverHearsAnotherContextsSave() async throws {
        let store = try Backend.postgres.store([Sample.self])
        let container = try store.container()
        let observer = try ResultsObserver<Sample, Never>(sortBy: [SortDescriptor(\.index)], modelContainer: container)
        #expect(observer.results.isEmpty)
        let writer = ModelContext(container)
        writer.insert(Sample(index: 2, text: "b", number: 0, amount: 0, when: .now, flag: true, maybe: nil))
        writer.insert(Sample(index: 1, text: "a", number: 0, amount: 0, when: .now, flag: true, maybe: nil))
        try writer.save()
        #expect(await eventually { observer.results.map(\.text) == ["a", "b"] })
    }

    @Test func aReadOnlyConfigurationReadsAndRefusesSaves() throws {
        let store = try Backend.postgres.store([Sample.self])
        let writer = ModelContext(try store.container())
        writer.insert(Sample(index: 1, text: "kept", number: 0, amount: 0, when: .now, flag: true, maybe: nil))
        try writer.save()
        let configuration = try #require(store.configuration as? PostgresConfiguration)
        let readOnly = PostgresConfiguration(url: configuration.url, databaseSchema: configuration.databaseSchema, isReadOnly: true)
        let reader = ModelContext(try ModelContainer(for: Sample.self, configurations: readOnly))
        #expect(try reader.fetch(FetchDescriptor<Sample>()).map(\.text) == ["kept"])
        reader.insert(Sample(index: 2, text: "refused", number: 0, amount: 0, when: .now, flag: true, maybe: nil))
        #expect {
            try reader.save()
        } throws: { error in
            "\(error)".contains("read-only")
        }
        #expect(try ModelContext(try store.container()).fetchCount(FetchDescriptor<Sample>()) == 1)
    }
}
