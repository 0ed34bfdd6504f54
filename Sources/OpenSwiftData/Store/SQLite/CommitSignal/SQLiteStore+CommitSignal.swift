#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

// Telling whoever watches a store that a commit happened.
extension SQLiteStore {
    /// Calls `listener` after commits to the store: for a file, by any connection of any process
    /// (on the ``CommitWatcher``'s thread; one call may stand for several commits); in memory, by
    /// this store (on the committing thread). Until the returned watch is cancelled.
    ///
    /// - Throws: when the file cannot be opened for reading or its directory watched.
    func watchCommits(_ listener: @escaping @Sendable () -> Void) throws -> CommitWatcher.Watch {
        switch location {
        case .file(let url): try CommitWatcher.shared.watch(storeAt: url, listener: listener)
        case .inMemory: commitListeners.add(listener)
        }
    }

    /// Announces a commit this store just made. On a file, touches the write-ahead log's
    /// timestamp: a change ``CommitWatcher``s of every process notice, and that comes after
    /// SQLite published the commit (the log's own last write comes before).
    func signalCommit() {
        switch location {
        case .file(let url):
            #if canImport(Glibc)
            _ = utimensat(AT_FDCWD, url.path + "-wal", nil, 0)
            #endif
        case .inMemory:
            commitListeners.callAll()
        }
    }
}
