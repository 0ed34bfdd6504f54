import Foundation
import OpenSwiftData
import Testing

// The iOS 27 observers inside a model actor, as a sync engine keeps them: created on the
// actor, isolated to it, following saves made elsewhere.

@Model final class Outbox {
    var payload: String
    init(payload: String) { self.payload = payload }
}

@ModelActor actor OutboxSync {
    private var pending: ResultsObserver<Outbox, Never>?
    private var arrivals: HistoryObserver?

    func start() throws {
        pending = try ResultsObserver(sortBy: [SortDescriptor(\.payload)], modelContext: modelContext)
        arrivals = try HistoryObserver(authors: ["App"], modelContainer: modelContainer)
    }

    func state() -> (payloads: [String], events: Int) {
        (pending?.results.map(\.payload) ?? [], arrivals?.eventCounter ?? -1)
    }
}

@Suite struct ObserversInAModelActorTests {
    @Test func theObserversFollowSavesFromAnotherContext() async throws {
        let container = try ModelContainer(for: Outbox.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let sync = OutboxSync(modelContainer: container)
        try await sync.start()
        let app = ModelContext(container)
        app.author = "App"
        app.insert(Outbox(payload: "b"))
        app.insert(Outbox(payload: "a"))
        try app.save()
        var state = await sync.state()
        for _ in 0..<2_000 where state.payloads != ["a", "b"] || state.events != 1 {
            try await Task.sleep(for: .milliseconds(5))
            state = await sync.state()
        }
        #expect(state.payloads == ["a", "b"])
        #expect(state.events == 1)
    }
}
