import Foundation

/// The PostgreSQL server the tests use: `OSD_POSTGRES_URL` when it is set, else a throw-away
/// cluster this test process starts on 127.0.0.1 (as the `postgres` user when running as root,
/// since `initdb` refuses root) and removes when it exits. Without PostgreSQL installed (or with
/// `OSD_POSTGRES=off`), the tests that need it are skipped, saying why.
public enum PostgresTestServer {
    /// The server's URL; `nil` when there is none (``unavailableReason`` says why).
    public static var url: URL? { started.url }
    /// Why there is no server.
    public static var unavailableReason: String { started.reason ?? "" }
    public static var isAvailable: Bool { url != nil }

    private static let started: (url: URL?, reason: String?) = start()

    private static func start() -> (URL?, String?) {
        if ProcessInfo.processInfo.environment["OSD_POSTGRES"] == "off" {
            return (nil, "OSD_POSTGRES=off")
        }
        if let given = ProcessInfo.processInfo.environment["OSD_POSTGRES_URL"], let url = URL(string: given) {
            return (url, nil)
        }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let version = versions.compactMap(Int.init).max() else {
            return (nil, "PostgreSQL is not installed (apt-get install postgresql-15), and OSD_POSTGRES_URL is not set")
        }
        let bin = "/usr/lib/postgresql/\(version)/bin"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("osd-postgres-\(ProcessInfo.processInfo.processIdentifier)")
        let data = directory.appendingPathComponent("data").path
        try? FileManager.default.removeItem(at: directory)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let asRoot = getuid() == 0
        if asRoot { _ = run("/bin/chown", ["postgres:postgres", directory.path]) }
        func asServerUser(_ tool: String, _ arguments: [String]) -> (status: Int32, output: String) {
            asRoot ? run("/usr/sbin/runuser", ["-u", "postgres", "--", "\(bin)/\(tool)"] + arguments) : run("\(bin)/\(tool)", arguments)
        }
        let initdb = asServerUser("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"])
        guard initdb.status == 0 else { return (nil, "initdb failed: \(initdb.output)") }
        let port = freePort()
        let options = "-c listen_addresses=127.0.0.1 -p \(port) -k \(directory.path) -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        let log = directory.appendingPathComponent("log")
        let started = asServerUser("pg_ctl", ["-D", data, "-l", log.path, "-o", options, "-w", "start"])
        guard started.status == 0 else {
            return (nil, "the server did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        }
        stopAtExit = { _ = asServerUser("pg_ctl", ["-D", data, "-m", "immediate", "stop"]); try? FileManager.default.removeItem(at: directory) }
        atexit { PostgresTestServer.stopAtExit?() }
        return (URL(string: "postgres://postgres@127.0.0.1:\(port)/postgres"), nil)
    }

    nonisolated(unsafe) private static var stopAtExit: (() -> Void)?

    /// Runs a tool through the shell, its output into a file: `Process` would wait for ever on
    /// pg_ctl, whose server keeps the descriptors it inherited open.
    private static func run(_ tool: String, _ arguments: [String]) -> (status: Int32, output: String) {
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
