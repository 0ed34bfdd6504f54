import Synchronization

/// The name of each table's identity sequence (what `pg_get_serial_sequence` says), looked up
/// once per store.
final class KeySequences: Sendable {
    private let names = Mutex<[String: String]>([:])

    func name(of table: String, lookUp: (String) throws -> String) throws -> String {
        if let name = names.withLock({ $0[table] }) { return name }
        let name = try lookUp(table)
        names.withLock { $0[table] = name }
        return name
    }
}
