import Foundation
import OpenSwiftDataPostgres

extension PostgresConfiguration {
    /// The configuration of a store argument that is a `postgres://` URL; `nil` for a file.
    static func named(_ store: String, databaseSchema: String) -> PostgresConfiguration? {
        guard store.hasPrefix("postgres://") || store.hasPrefix("postgresql://"), let url = URL(string: store) else { return nil }
        return PostgresConfiguration(url: url, databaseSchema: databaseSchema)
    }
}
