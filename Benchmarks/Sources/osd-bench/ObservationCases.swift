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
            let context = Stores.context(container!)
            for i in 0..<n {
                let noticed = DispatchSemaphore(value: 0)
                if let observer = observed.observer {
                    withObservationTracking { _ = observer.eventCounter } onChange: { noticed.signal() }
                }
                context.insert(User(id: UUID(), firstName: Seed.firstName(i), surname: Seed.surname(i), age: Seed.age(i)))
                try context.save()
                if observed.observer != nil { noticed.wait() }
            }
            return n
        }, after: {
            observed.observer = nil
            observed.container = nil
            closeAll()
        })
    }

    /// The second container and its observer.
    private final class ObservedStore {
        var container: ModelContainer?
        var observer: HistoryObserver?
    }
}
