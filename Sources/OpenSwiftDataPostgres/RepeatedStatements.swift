import NIOCore
import PostgresNIO
import Synchronization

/// The statements a store sends again and again (a fetch's select of one shape, a save's
/// history statement), which each connection's server parses and plans once, as prepared
/// statements: a select by key costs PostgreSQL about two fifths less.
///
/// Only the store's reads and its history statement are run so, never while it migrates: a
/// prepared select whose table's columns change type would fail ("cached plan must not change
/// result type"), and a migration is what changes them. A statement is prepared from its second
/// successful run on, so one that failed (a table not made yet) never stays prepared and failing
/// on a connection. Every connection prepares a statement under the name this registry gives
/// it; it names at most ``maximumCount`` statements (a server's shapes of fetch are far fewer),
/// and notes at most ten times as many once run.
enum RepeatedStatements {
    static let maximumCount = 1_000

    private static let known = Mutex<(names: [String: String], seen: Set<String>)>(([:], []))

    /// The name `sql` is prepared under, once it has run successfully before.
    static func name(of sql: String) -> String? {
        known.withLock { $0.names[sql] }
    }

    /// Notes that `sql` ran successfully: from its second time on, it is given a name.
    static func noteSucceeded(_ sql: String) {
        known.withLock { known in
            guard known.names[sql] == nil, known.names.count < maximumCount else { return }
            if known.seen.contains(sql) {
                known.names[sql] = "osd_\(known.names.count + 1)"
            } else if known.seen.count < 10 * maximumCount {
                known.seen.insert(sql)
            }
        }
    }
}

/// A repeated statement as postgres-nio prepares it: its name and text are those of the run in
/// progress (``current``), its parameters' types those of its first run's bindings.
struct RepeatedStatement: PostgresPreparedStatement {
    typealias Row = PostgresRow

    /// The name and text of the statement being run, read by postgres-nio as it sends it.
    @TaskLocal static var current = (name: "", sql: "")

    static var name: String { current.name }
    static var sql: String { current.sql }

    let bindings: PostgresBindings

    func makeBindings() throws -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

/// Runs a task's jobs on one SwiftNIO event loop: a connection's, where postgres-nio's async
/// calls then write to the connection and resume with no other thread in between.
final class EventLoopTaskExecutor: TaskExecutor, @unchecked Sendable {
    let loop: any EventLoop

    init(_ loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
