import Foundation
import Synchronization

/// A throw-away PostgreSQL cluster on 127.0.0.1, started by this test process (as the `postgres`
/// user when running as root, since `initdb` refuses root) and removed when it exits.
struct PostgresCluster {
    /// The cluster's folder: `data/`, the log, the Unix socket, and what `prepare` puts there.
    let directory: URL
    let port: Int
    /// Runs a tool of the server's installation as the user the server runs as.
    let runAsServerUser: (_ tool: String, _ arguments: [String]) -> (status: Int32, output: String)

    /// Starts a cluster: `prepare` gets the folder (owned by the server's user afterwards) and
    /// the data folder after `initdb`, and returns the server's extra options (`-c name=value`).
    static func start(
        named name: String, prepare: (_ directory: URL, _ data: URL) throws -> String = { _, _ in "" }
    ) -> Result<PostgresCluster, ClusterUnavailable> {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let version = versions.compactMap(Int.init).max() else {
            return .failure(ClusterUnavailable(reason: "PostgreSQL is not installed (apt-get install postgresql-15), and OSD_POSTGRES_URL is not set"))
        }
        let bin = "/usr/lib/postgresql/\(version)/bin"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("osd-\(name)-\(ProcessInfo.processInfo.processIdentifier)")
        let data = directory.appendingPathComponent("data")
        try? FileManager.default.removeItem(at: directory)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let asRoot = getuid() == 0
        func asServerUser(_ tool: String, _ arguments: [String]) -> (status: Int32, output: String) {
            asRoot ? run("/usr/sbin/runuser", ["-u", "postgres", "--", "\(bin)/\(tool)"] + arguments) : run("\(bin)/\(tool)", arguments)
        }
        if asRoot { _ = run("/bin/chown", ["postgres:postgres", directory.path]) }
        let initdb = asServerUser("initdb", ["-D", data.path, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"])
        guard initdb.status == 0 else { return .failure(ClusterUnavailable(reason: "initdb failed: \(initdb.output)")) }
        let extraOptions: String
        do {
            extraOptions = try prepare(directory, data)
        } catch {
            return .failure(ClusterUnavailable(reason: "the cluster \(name) could not be prepared: \(error)"))
        }
        if asRoot { _ = run("/bin/chown", ["-R", "postgres:postgres", directory.path]) }
        let port = freePort()
        let options = "-c listen_addresses=127.0.0.1 -p \(port) -k \(directory.path) -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 \(extraOptions)"
        let log = directory.appendingPathComponent("log")
        let started = asServerUser("pg_ctl", ["-D", data.path, "-l", log.path, "-o", options, "-w", "start"])
        guard started.status == 0 else {
            return .failure(ClusterUnavailable(reason: "the server did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")"))
        }
        stopsAtExit.withLock { stops in
            if stops.isEmpty { atexit { PostgresCluster.stopAll() } }
            stops.append { _ = asServerUser("pg_ctl", ["-D", data.path, "-m", "immediate", "stop"]); try? FileManager.default.removeItem(at: directory) }
        }
        return .success(PostgresCluster(directory: directory, port: port, runAsServerUser: asServerUser))
    }

    /// Runs SQL as the superuser over the cluster's Unix socket (which `pg_hba.conf` may trust
    /// when TCP does not).
    func superuserSQL(_ sql: String) -> (status: Int32, output: String) {
        runAsServerUser("psql", ["-h", directory.path, "-p", "\(port)", "-U", "postgres", "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-c", sql])
    }

    struct ClusterUnavailable: Error { let reason: String }

    private static let stopsAtExit = Mutex<[() -> Void]>([])
    private static func stopAll() { stopsAtExit.withLock { $0.forEach { $0() } } }

    /// Runs a tool through the shell, its output into a file: `Process` would wait for ever on
    /// pg_ctl, whose server keeps the descriptors it inherited open.
    static func run(_ tool: String, _ arguments: [String]) -> (status: Int32, output: String) {
        let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("osd-postgres-output-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: outputURL) }
        func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let command = ([tool] + arguments).map(quoted).joined(separator: " ") + " </dev/null >\(quoted(outputURL.path)) 2>&1"
        let status = system(command)
        return (status, (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "")
    }

    /// A TCP port no one listens on now.
    private static func freePort() -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
