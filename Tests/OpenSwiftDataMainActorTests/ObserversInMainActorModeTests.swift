import Foundation
import OpenSwiftData
import Testing

// The iOS 27 observers as an app with MainActor default isolation uses them: created on the
// main actor, followed there, without a warning.

@Model
final class Reminder {
    var title: String
    var isDone = false

    init(title: String) { self.title = title }
}

@Suite struct ObserversInMainActorModeTests {
    @Test func theObserversFollowTheMainContext() async throws {
        let container = try ModelContainer(for: Reminder.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let open = try ResultsObserver<Reminder, Never>(
            filterBy: #Predicate { !$0.isDone }, sortBy: [SortDescriptor(\.title)], modelContext: container.mainContext)
        let history = try HistoryObserver(observedModels: [Reminder.self], modelContainer: container)
        container.mainContext.insert(Reminder(title: "call"))
        container.mainContext.insert(Reminder(title: "buy"))
        try container.mainContext.save()
        var waited = 0
        while (open.results.map(\.title) != ["buy", "call"] || history.eventCounter != 1) && waited < 2_000 {
            try await Task.sleep(for: .milliseconds(5))
            waited += 1
        }
        #expect(open.results.map(\.title) == ["buy", "call"])
        #expect(history.eventCounter == 1)
    }
}
