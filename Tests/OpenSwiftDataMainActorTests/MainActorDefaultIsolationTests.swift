import Foundation
import OpenSwiftData
import Testing

// App code as a new Xcode project builds it: Swift 6 with MainActor default isolation, so every
// class here, the model included, is main-actor isolated unless it says otherwise. It must
// build without a single warning.

@Model
final class Note {
    @Attribute(.unique) var title: String
    var body: String

    init(title: String, body: String) {
        self.title = title
        self.body = body
    }
}

@Suite struct MainActorDefaultIsolationTests {
    @Test func aMainActorModelIsSavedFetchedAndObserved() throws {
        let container = try ModelContainer(for: Note.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let note = Note(title: "groceries", body: "milk")
        container.mainContext.insert(note)
        try container.mainContext.save()

        let changes = Counter()
        withObservationTracking { _ = note.body } onChange: { changes.increment() }
        note.body = "milk, eggs"
        #expect(changes.value == 1)
        try container.mainContext.save()

        let fetched = try ModelContext(container).fetch(FetchDescriptor<Note>())
        #expect(fetched.map(\.body) == ["milk, eggs"])
    }
}

/// Counts the observer's calls, which come on whatever thread makes the change.
nonisolated final class Counter: @unchecked Sendable {
    private(set) var value = 0
    func increment() { value += 1 }
}
