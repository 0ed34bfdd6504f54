#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GRDB
import Synchronization

/// Notices commits to store files, by any connection of any process, without polling: one
/// thread per process waits on Linux's inotify for writes to the watched files' directories,
/// then asks each written store's `PRAGMA data_version` (which changes exactly when another
/// connection committed) whether a commit is now visible.
///
/// A commit's last write to the write-ahead log comes before SQLite publishes it in the shared
/// index (after an fsync with `synchronous = FULL`): a check at that write finds nothing new.
/// OpenSwiftData's own saves therefore touch the log's timestamp once committed
/// (``SQLiteStore/signalCommit()``), an event that comes after the commit is visible. For other
/// writers (the `sqlite3` shell), a write with no visible commit is checked again 10 ms, 100 ms
/// and 1 s later. With no writes, the thread sleeps.
///
/// Where inotify does not exist, the watched stores are checked four times a second instead.
package final class CommitWatcher: Sendable {
    /// The process's watcher, started with its first watch.
    static let shared = CommitWatcher()

    /// One watched store file and whoever listens to it.
    private final class WatchedFile: @unchecked Sendable {
        let url: URL
        let fileName: String
        let logName: String
        // Touched only on the watcher's thread, after the watch is registered.
        let connection: DatabaseQueue
        var dataVersion: Int
        var listeners: [UInt64: @Sendable () -> Void] = [:]
        var directoryWatch: Int32 = -1
        /// When to look again for a commit a write announced, and how many looks remain.
        var recheckAt: ContinuousClock.Instant?
        var rechecksDone = 0

        init(url: URL) throws {
            self.url = url
            fileName = url.lastPathComponent
            logName = fileName + "-wal"
            // Read-only: closing it never checkpoints or removes the log, and it cannot write.
            var configuration = SQLiteStore.defensive()
            configuration.readonly = true
            connection = try DatabaseQueue(path: url.path, configuration: configuration)
            dataVersion = try Self.dataVersion(of: connection)
        }

        static func dataVersion(of connection: DatabaseQueue) throws -> Int {
            try connection.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
        }
    }

    private struct State {
        var files: [String: WatchedFile] = [:]
        var nextListener: UInt64 = 0
        var threadStarted = false
    }

    private let state = Mutex(State())
    #if canImport(Glibc)
    private let inotify: Int32 = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    #endif
    private static let recheckDelays: [Duration] = [.milliseconds(10), .milliseconds(100), .seconds(1)]

    /// A registration: cancelling it (or letting it go) stops the calls.
    package final class Watch: Sendable {
        private let cancelBody: Mutex<(@Sendable () -> Void)?>

        package init(cancel: @escaping @Sendable () -> Void) {
            cancelBody = Mutex(cancel)
        }

        package func cancel() {
            let body = cancelBody.withLock { body in
                defer { body = nil }
                return body
            }
            body?()
        }

        deinit { cancel() }
    }

    /// Calls `listener` on the watcher's thread after commits to the store file at `url` (one
    /// call may stand for several commits), until the returned watch is cancelled.
    ///
    /// - Throws: when the file cannot be opened for reading.
    func watch(storeAt url: URL, listener: @escaping @Sendable () -> Void) throws -> Watch {
        let url = url.standardizedFileURL
        let key = url.path
        var made: WatchedFile?
        while true {
            if let id = try register(listener, key: key, made: made) {
                return Watch { [self] in stopListening(id, to: key) }
            }
            // Not watched yet: the file's connection is opened outside the lock, then registered.
            made = try WatchedFile(url: url)
        }
    }

    /// Registers `listener` for the file at `key`, with `made` as its watch when it has none yet;
    /// `nil` when it has none and `made` is `nil`.
    private func register(_ listener: @escaping @Sendable () -> Void, key: String, made: WatchedFile?) throws -> UInt64? {
        try state.withLock { state in
            if state.files[key] == nil {
                guard let made else { return nil }
                #if canImport(Glibc)
                let directory = made.url.deletingLastPathComponent().path
                let events = UInt32(IN_MODIFY | IN_ATTRIB | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE)
                made.directoryWatch = inotify_add_watch(inotify, directory, events)
                guard made.directoryWatch >= 0 else {
                    throw SwiftDataError.loadIssueModelContainer.explaining(
                        "the directory \(directory) cannot be watched for other processes' saves (inotify: \(String(cString: strerror(errno)))); raise fs.inotify.max_user_watches if the limit was reached")
                }
                #endif
                state.files[key] = made
            }
            state.nextListener += 1
            state.files[key]!.listeners[state.nextListener] = listener
            if !state.threadStarted {
                state.threadStarted = true
                let thread = Thread { [self] in run() }
                thread.name = "OpenSwiftData commit watcher"
                thread.start()
            }
            return state.nextListener
        }
    }

    private func stopListening(_ id: UInt64, to key: String) {
        let closing: WatchedFile? = state.withLock { state in
            guard let file = state.files[key] else { return nil }
            file.listeners[id] = nil
            guard file.listeners.isEmpty else { return nil }
            state.files[key] = nil
            #if canImport(Glibc)
            // Several stores of one directory share its watch; remove it with the last.
            if !state.files.values.contains(where: { $0.directoryWatch == file.directoryWatch }) {
                inotify_rm_watch(inotify, file.directoryWatch)
            }
            #endif
            return file
        }
        try? closing?.connection.close()
    }

    private func run() {
        while true {
            let names = waitForWrites(timeout: nextRecheck())
            let now = ContinuousClock.now
            func wasWritten(_ file: WatchedFile) -> Bool {
                names.map { $0.contains(file.fileName) || $0.contains(file.logName) } ?? true
            }
            let due = state.withLock { state in
                state.files.values.filter { file in wasWritten(file) || (file.recheckAt.map { $0 <= now } ?? false) }
            }
            for file in due { check(file, wasWritten: wasWritten(file)) }
        }
    }

    /// Whether a commit is visible in `file` since the last check; calls its listeners if so,
    /// else schedules the next look while the write that woke the watcher may be a commit
    /// still being published.
    private func check(_ file: WatchedFile, wasWritten: Bool) {
        let version = try? WatchedFile.dataVersion(of: file.connection)
        let listeners: [@Sendable () -> Void] = state.withLock { _ in
            if let version, version != file.dataVersion {
                file.dataVersion = version
                file.recheckAt = nil
                file.rechecksDone = 0
                return Array(file.listeners.values)
            }
            if wasWritten { file.rechecksDone = 0 }
            if file.rechecksDone < Self.recheckDelays.count {
                file.recheckAt = ContinuousClock.now + Self.recheckDelays[file.rechecksDone]
                file.rechecksDone += 1
            } else {
                file.recheckAt = nil
            }
            return []
        }
        for listener in listeners { listener() }
    }

    /// How long until the earliest scheduled look; `nil` when none is.
    private func nextRecheck() -> Duration? {
        let earliest = state.withLock { $0.files.values.compactMap(\.recheckAt).min() }
        return earliest.map { max(.zero, $0 - ContinuousClock.now) }
    }

    #if canImport(Glibc)
    /// Waits for writes in the watched directories, at most `timeout` (forever when `nil`);
    /// returns the names of the files written, `nil` when any may have been.
    private func waitForWrites(timeout: Duration?) -> Set<String>? {
        var descriptor = pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)
        let milliseconds = timeout.map { Int32(clamping: $0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000 + 1) } ?? -1
        guard poll(&descriptor, 1, milliseconds) > 0 else { return [] }
        var names: Set<String> = []
        var overflowed = false
        let bufferSize = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        while true {
            let count = read(inotify, buffer, bufferSize)
            guard count > 0 else { break }
            var offset = 0
            while offset < count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let headerSize = MemoryLayout<inotify_event>.size
                // Events were dropped: any store may have been written.
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 { overflowed = true }
                if event.len > 0 {
                    let name = buffer.advanced(by: offset + headerSize).assumingMemoryBound(to: CChar.self)
                    names.insert(String(cString: name))
                }
                offset += headerSize + Int(event.len)
            }
        }
        return overflowed ? nil : names
    }
    #else
    /// Without inotify: waits a quarter of a second, then has every watched store checked.
    private func waitForWrites(timeout: Duration?) -> Set<String>? {
        Thread.sleep(forTimeInterval: 0.25)
        return nil
    }
    #endif
}
