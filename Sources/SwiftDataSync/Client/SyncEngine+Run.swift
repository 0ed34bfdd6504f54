import Foundation
import SwiftData

extension SyncEngine {
    /// Syncs now, then each time the app saves the synced models, the server says its models
    /// changed (``SyncTransport/changes()``), or `interval` passes, until the calling task is
    /// cancelled. A failed sync is tried again after a pause that doubles up to a minute; a lost
    /// connection to the server's signals is made again, and a sync follows it, so nothing
    /// said while it was down is missed.
    ///
    /// ```swift
    /// let syncing = Task { await engine.run() }
    /// // … and when the user signs out:
    /// syncing.cancel()
    /// ```
    public func run(every interval: Duration = .seconds(300)) async {
        let (triggers, trigger) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        trigger.yield()
        let container = self.container
        let saves = NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: nil, queue: nil) { notification in
            // Saves of the app's container, but not the sync's own.
            guard let context = notification.object as? ModelContext, context.container === container,
                  !SyncReplica.isSyncAuthor(context.author)
            else { return }
            trigger.yield()
        }
        defer { NotificationCenter.default.removeObserver(saves) }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [transport] in
                var pause = Duration.milliseconds(500)
                while !Task.isCancelled {
                    do {
                        for try await _ in transport.changes() {
                            pause = .milliseconds(500)
                            trigger.yield()
                        }
                    } catch {}
                    try? await Task.sleep(for: pause)
                    pause = min(pause * 2, .seconds(60))
                    trigger.yield()
                }
            }
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    trigger.yield()
                }
            }
            group.addTask { [self] in
                var pause = Duration.milliseconds(500)
                for await _ in triggers {
                    if Task.isCancelled { break }
                    do {
                        try await sync()
                        pause = .milliseconds(500)
                    } catch {
                        try? await Task.sleep(for: pause)
                        pause = min(pause * 2, .seconds(60))
                        trigger.yield()
                    }
                }
            }
            // Everything stops with the calling task.
            await withTaskCancellationHandler { await group.next() } onCancel: { trigger.finish() }
            group.cancelAll()
        }
    }
}
