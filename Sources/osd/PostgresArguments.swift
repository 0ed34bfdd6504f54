import Foundation
import OpenSwiftDataPostgres

extension PostgresConfiguration {
    /// The configuration of a store argument that is a `postgres://` URL; `nil` for a file. The
    /// PostgreSQL schema is the URL's `schema` query item (`postgres://…/films?schema=catalog`),
    /// else `databaseSchema`.
    static func named(_ store: String, databaseSchema: String = "public") -> PostgresConfiguration? {
        guard store.hasPrefix("postgres://") || store.hasPrefix("postgresql://"), var components = URLComponents(string: store) else { return nil }
        let schema = components.queryItems?.first { $0.name == "schema" }?.value
        components.queryItems = components.queryItems?.filter { $0.name != "schema" }
        if components.queryItems?.isEmpty == true { components.queryItems = nil }
        guard let url = components.url else { return nil }
        return PostgresConfiguration(url: url, databaseSchema: schema ?? databaseSchema)
    }
}
