import Foundation

/// The PostgreSQL server the tests use: `OSD_POSTGRES_URL` when it is set, else a throw-away
/// cluster this test process starts on 127.0.0.1 and removes when it exits (``PostgresCluster``).
/// Without PostgreSQL installed (or with `OSD_POSTGRES=off`), the tests that need it are skipped,
/// saying why.
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
        switch PostgresCluster.start(named: "postgres") {
        case .success(let cluster): return (URL(string: "postgres://postgres@127.0.0.1:\(cluster.port)/postgres"), nil)
        case .failure(let unavailable): return (nil, unavailable.reason)
        }
    }
}
