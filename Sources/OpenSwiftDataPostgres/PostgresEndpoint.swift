import Foundation
import OpenSwiftData

/// The server, credentials and database a `postgres://` URL names.
struct PostgresEndpoint: Sendable, Hashable {
    let host: String
    let port: Int
    let user: String
    let password: String?
    let database: String
    /// The configuration whose server this is, for messages.
    let configurationName: String
    /// How the connection uses TLS: the URL's `sslmode`, `sslrootcert`, `sslcert` and
    /// `sslkey`, or the configuration's ``PostgresConfiguration/tls``.
    let tls: PostgresTLS
    /// How long connecting may take, in seconds (`connect_timeout`); `nil` for the driver's 10.
    let connectTimeout: Int?
    /// The name the server's views show for the connection (`application_name`).
    let applicationName: String?

    /// The URL's parameters the store reads, as libpq names them.
    static let parameters = ["sslmode", "sslrootcert", "sslcert", "sslkey", "connect_timeout", "application_name", "channel_binding"]

    /// The configuration's server, with its ``PostgresConfiguration/tls`` in place of the URL's
    /// TLS parameters when it is set.
    init(_ configuration: PostgresConfiguration) throws {
        try self.init(configuration.url, configuration: configuration.name, tls: configuration.tls)
    }

    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` naming what the URL lacks, or the
    ///   parameter it has that the store does not know.
    init(_ url: URL, configuration: String, tls: PostgresTLS? = nil) throws {
        func refuse(_ why: String, fix: String = "write postgres://user:password@host:5432/database?sslmode=verify-full") -> SwiftDataError {
            SwiftDataError.loadIssueModelContainer.explaining(
                "the configuration \(configuration) has the URL \(Self.redacted(url)), which \(why); \(fix)")
        }
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql"
        else { throw refuse("is not a postgres:// URL") }
        guard let host = components.host, !host.isEmpty else { throw refuse("names no host") }
        guard let user = components.user, !user.isEmpty else { throw refuse("names no user") }
        self.host = host
        configurationName = configuration
        port = components.port ?? 5432
        self.user = user.removingPercentEncoding ?? user
        password = components.password.map { $0.removingPercentEncoding ?? $0 }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? self.user : (path.removingPercentEncoding ?? path)

        var given: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard Self.parameters.contains(item.name) else {
                throw refuse("has the parameter \(item.name), which OpenSwiftData does not know", fix: "remove it; the store reads \(Self.parameters.joined(separator: ", "))")
            }
            given[item.name] = item.value ?? ""
        }
        if let tls {
            self.tls = tls
        } else {
            let modeName = given["sslmode"] ?? PostgresTLS.Mode.prefer.rawValue
            guard let mode = PostgresTLS.Mode(rawValue: modeName) else {
                throw refuse("has sslmode=\(modeName), which is not an sslmode", fix: "write one of \(PostgresTLS.Mode.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            self.tls = PostgresTLS(mode, rootCertificate: given["sslrootcert"], clientCertificate: given["sslcert"], clientKey: given["sslkey"])
        }
        if (self.tls.clientCertificate == nil) != (self.tls.clientKey == nil) {
            throw refuse("gives a client certificate without its key, or a key without its certificate", fix: "give both sslcert and sslkey")
        }
        if let timeout = given["connect_timeout"] {
            guard let seconds = Int(timeout), seconds >= 0 else { throw refuse("has connect_timeout=\(timeout), which is not a whole number of seconds", fix: "write connect_timeout=10, for example") }
            connectTimeout = seconds == 0 ? nil : max(seconds, 2)
        } else {
            connectTimeout = nil
        }
        applicationName = given["application_name"]
        // Channel binding (SCRAM-SHA-256-PLUS) is not something this driver offers; libpq's
        // default, prefer, goes without it, so only require is refused.
        if let binding = given["channel_binding"], binding != "disable", binding != "prefer" {
            throw refuse("has channel_binding=\(binding), but the store authenticates without channel binding", fix: "write channel_binding=prefer, or leave it out")
        }
    }

    /// The URL with its password replaced, for messages.
    static func redacted(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              components.password != nil || components.queryItems?.contains(where: { $0.name == "password" }) == true
        else { return url.absoluteString }
        if components.password != nil { components.password = "•••" }
        components.queryItems = components.queryItems?.map { $0.name == "password" ? URLQueryItem(name: "password", value: "•••") : $0 }
        return components.string ?? url.absoluteString
    }
}
