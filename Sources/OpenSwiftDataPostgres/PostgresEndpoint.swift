import Foundation
import OpenSwiftData

/// The server, credentials and database a `postgres://` URL names.
struct PostgresEndpoint: Sendable, Hashable {
    let host: String
    let port: Int
    let user: String
    let password: String?
    let database: String

    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` naming what the URL lacks.
    init(_ url: URL, configuration: String) throws {
        func refuse(_ why: String) -> SwiftDataError {
            SwiftDataError.loadIssueModelContainer.explaining(
                "the configuration \(configuration) has the URL \(Self.redacted(url)), which \(why); write postgres://user:password@host:5432/database")
        }
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql"
        else { throw refuse("is not a postgres:// URL") }
        guard let host = components.host, !host.isEmpty else { throw refuse("names no host") }
        guard let user = components.user, !user.isEmpty else { throw refuse("names no user") }
        self.host = host
        port = components.port ?? 5432
        self.user = user.removingPercentEncoding ?? user
        password = components.password.map { $0.removingPercentEncoding ?? $0 }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? self.user : (path.removingPercentEncoding ?? path)
    }

    /// The URL with its password replaced, for messages.
    static func redacted(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), components.password != nil else {
            return url.absoluteString
        }
        components.password = "•••"
        return components.string ?? url.absoluteString
    }
}
