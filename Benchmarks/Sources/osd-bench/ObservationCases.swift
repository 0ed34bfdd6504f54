import Foundation
import Observation
import OpenSwiftData

extension JobSetup {
    /// E2: how long a save takes to reach a `HistoryObserver` of another container on the same
    /// file (inotify, the data version, the observer's look at the history), beside the saves
    /// alone.
    func noticedSavesJob() throws -> Job {
        let observed = ObservedStore()
        return Job(before: {
            try Stores.fresh(UsersV1.self, at: url)
            container = try Stores.container(UsersV1.self, at: url)
            if driver == "ours" {
                observed.container = try Stores.container(UsersV1.self, at: url)
                observed.observer = try HistoryObserver(modelContainer: observed.container!)
            }
        }, body: {
            try saveEach(n, in: Stores.context(container!), noticedBy: observed.observer) { i in
                User(id: UUID(), firstName: Seed.firstName(i), surname: Seed.surname(i), age: Seed.age(i))
            }
            return n
        }, after: {
            observed.observer = nil
            observed.container = nil
            closeAll()
        })
    }

}

/// The second container and its observer (E2, P9).
final class ObservedStore {
    var container: ModelContainer?
    var observer: HistoryObserver?
}

/// Inserts `n` models one save each; with an observer, each save is waited for until the
/// observer counts it.
func saveEach(_ n: Int, in context: ModelContext, noticedBy observer: HistoryObserver?, _ make: (Int) -> any PersistentModel) throws {
    for i in 0..<n {
        let noticed = DispatchSemaphore(value: 0)
        if let observer {
            withObservationTracking { _ = observer.eventCounter } onChange: { noticed.signal() }
        }
        context.insert(make(i))
        try context.save()
        if observer != nil { noticed.wait() }
    }
}
