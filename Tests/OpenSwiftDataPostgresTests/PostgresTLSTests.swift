import Foundation
import OpenSwiftData
import Testing
import TestSupport
@testable import OpenSwiftDataPostgres

@Model final class SealedNote {
    var text: String
    init(text: String) { self.text = text }
}

/// TLS as libpq spells it, against a server that accepts only TLS (PostgresTLSTestServer): a
/// certificate for `localhost` signed by a throw-away authority, SCRAM and md5 passwords, and a
/// user authenticated by a client certificate.
@Suite(.enabled(if: PostgresTLSTestServer.server != nil, "needs the TLS test server: \(PostgresTLSTestServer.unavailableReason)"))
struct PostgresTLSTests {
    let server = PostgresTLSTestServer.server!
    typealias Server = PostgresTLSTestServer.Server

    func url(host: String = "localhost", user: (name: String, password: String) = Server.scramUser, _ parameters: String = "") -> URL {
        URL(string: "postgres://\(user.name):\(user.password)@\(host):\(server.port)/postgres\(parameters.isEmpty ? "" : "?" + parameters)")!
    }

    /// Saves a note through a container on `url`, opens a second container and reads it back;
    /// returns whether the connection was encrypted, as the server saw it.
    @discardableResult
    func saveAndReadBack(_ url: URL, tls: PostgresTLS? = nil) throws -> Bool {
        let schema = "tls_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        var configuration = PostgresConfiguration(schema: Schema([SealedNote.self]), url: url, databaseSchema: schema)
        configuration.tls = tls
        let endpoint = try PostgresEndpoint(configuration)
        defer { _ = try? PostgresSession(endpoint).query("DROP SCHEMA IF EXISTS \(unescaped: PostgresNames.quoted(schema)) CASCADE") }
        do {
            let container = try ModelContainer(for: SealedNote.self, configurations: configuration)
            let context = ModelContext(container)
            context.insert(SealedNote(text: "sent over TLS"))
            try context.save()
        }
        let container = try ModelContainer(for: SealedNote.self, configurations: configuration)
        #expect(try ModelContext(container).fetch(FetchDescriptor<SealedNote>()).map(\.text) == ["sent over TLS"])
        return try PostgresSession(endpoint).query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()").first!.decode(Bool.self)
    }

    /// Opening `url` fails; returns the message, checked not to contain a password and to have
    /// come back without waiting out a timeout.
    func refusal(_ url: URL, tls: PostgresTLS? = nil) throws -> String {
        var configuration = PostgresConfiguration(schema: Schema([SealedNote.self]), url: url, databaseSchema: "never_made")
        configuration.tls = tls
        let started = ContinuousClock.now
        let error = #expect(throws: SwiftDataError.self) { _ = try ModelContainer(for: SealedNote.self, configurations: configuration) }
        #expect(ContinuousClock.now - started < .seconds(8), "a refusal waited instead of failing")
        let message = "\(error.map { $0 } as Any)"
        #expect(!message.contains(Server.scramUser.password) && !message.contains(Server.md5User.password), "\(message)")
        return message
    }

    @Test func verifyFullWithTheAuthorityConnectsEncrypted() throws {
        #expect(try saveAndReadBack(url("sslmode=verify-full&sslrootcert=\(server.authority)")))
    }

    @Test func theConfigurationsTLSTakesThePlaceOfTheURLs() throws {
        #expect(try saveAndReadBack(url("sslmode=disable"), tls: PostgresTLS(.verifyFull, rootCertificate: server.authority)))
    }

    @Test func preferIsTheDefaultAndEncryptsWhenTheServerOffersTLS() throws {
        #expect(try saveAndReadBack(url()))
        #expect(try saveAndReadBack(url("sslmode=prefer")))
    }

    @Test func requireEncryptsWithoutCheckingTheCertificate() throws {
        #expect(try saveAndReadBack(url(host: "127.0.0.1", "sslmode=require")))
    }

    @Test func allowRetriesWithTLSWhenTheServerRefusesWithout() throws {
        #expect(try saveAndReadBack(url("sslmode=allow")))
    }

    @Test func verifyCAChecksTheAuthorityButNotTheHostName() throws {
        // The certificate names localhost only.
        #expect(try saveAndReadBack(url(host: "127.0.0.1", "sslmode=verify-ca&sslrootcert=\(server.authority)")))
        // libpq's rule: require with a root certificate verifies the chain.
        #expect(try saveAndReadBack(url(host: "127.0.0.1", "sslmode=require&sslrootcert=\(server.authority)")))
        let message = try refusal(url(host: "127.0.0.1", "sslmode=require&sslrootcert=\(server.otherAuthority)"))
        #expect(message.contains("TLS handshake failed") && message.contains(server.otherAuthority), "\(message)")
    }

    @Test func verifyFullRefusesACertificateIssuedForAnotherHost() throws {
        let message = try refusal(url(host: "127.0.0.1", "sslmode=verify-full&sslrootcert=\(server.authority)"))
        #expect(message.contains("not issued for 127.0.0.1") && message.contains("verify-ca"), "\(message)")
    }

    @Test func verifyFullRefusesACertificateFromAnotherAuthority() throws {
        let message = try refusal(url("sslmode=verify-full&sslrootcert=\(server.otherAuthority)"))
        #expect(message.contains("TLS handshake failed") && message.contains("sslrootcert \(server.otherAuthority)"), "\(message)")
        #expect(message.lowercased().contains("certificate"), "\(message)")
    }

    @Test func verifyFullWithoutARootCertificateUsesTheSystemsRootsWhichDoNotHoldATestAuthority() throws {
        let message = try refusal(url("sslmode=verify-full"))
        #expect(message.contains("the system's trusted roots"), "\(message)")
    }

    @Test func disableOnAServerThatAcceptsOnlyTLSIsRefusedSayingWhatToUse() throws {
        let message = try refusal(url("sslmode=disable"))
        #expect(message.contains("no encryption") && message.contains("sslmode=require"), "\(message)")
    }

    @Test func md5AndSCRAMPasswordsAuthenticateAndWrongOnesAreRefusedByUser() throws {
        #expect(try saveAndReadBack(url(user: Server.md5User, "sslmode=verify-full&sslrootcert=\(server.authority)")))
        #expect(try saveAndReadBack(url(user: Server.scramUser, "sslmode=verify-full&sslrootcert=\(server.authority)")))
        for user in [Server.md5User, Server.scramUser] {
            let message = try refusal(url(user: (user.name, "wrong-\(user.password)"), "sslmode=require"))
            #expect(message.contains("password authentication failed for user \"\(user.name)\""), "\(message)")
            #expect(!message.contains("wrong-"), "\(message)")
        }
    }

    @Test func aClientCertificateAuthenticatesItsUser() throws {
        let user = URL(string: "postgres://\(Server.certificateUser)@localhost:\(server.port)/postgres")!
        #expect(try saveAndReadBack(user, tls: PostgresTLS(.verifyFull, rootCertificate: server.authority, clientCertificate: server.clientCertificate, clientKey: server.clientKey)))
        let withoutCertificate = try refusal(user, tls: PostgresTLS(.verifyFull, rootCertificate: server.authority))
        #expect(withoutCertificate.contains(Server.certificateUser), "\(withoutCertificate)")
    }

    @Test func unreadableCertificateFilesAreRefusedByName() throws {
        let missing = "/nonexistent/osd-root.pem"
        let message = try refusal(url("sslmode=verify-full&sslrootcert=\(missing)"))
        #expect(message.contains("sslrootcert \(missing)"), "\(message)")
        let key = try refusal(url("sslmode=require&sslcert=\(server.clientCertificate)&sslkey=\(missing)"))
        #expect(key.contains("sslkey \(missing)"), "\(key)")
    }
}

/// The URL's TLS parameters, read before any connection is made; and a server without TLS.
@Suite struct PostgresTLSParameterTests {
    func refusal(_ url: String) -> String {
        let configuration = PostgresConfiguration(url: URL(string: url)!)
        let error = #expect(throws: SwiftDataError.self) { try configuration.validate() }
        return "\(error.map { $0 } as Any)"
    }

    @Test func anUnknownSSLModeIsRefusedByNameListingTheModes() {
        let message = refusal("postgres://app:pw-7731@db.example.com/films?sslmode=verify-fulll")
        #expect(message.contains("sslmode=verify-fulll"), "\(message)")
        #expect(message.contains("disable, allow, prefer, require, verify-ca, verify-full"), "\(message)")
        #expect(!message.contains("pw-7731"), "\(message)")
    }

    @Test func anUnknownParameterIsRefusedByName() {
        let message = refusal("postgres://app@db.example.com/films?sslmod=require")
        #expect(message.contains("the parameter sslmod"), "\(message)")
    }

    @Test func aClientCertificateNeedsItsKey() {
        #expect(refusal("postgres://app@db.example.com/films?sslcert=/etc/client.pem").contains("sslkey"))
    }

    @Test func channelBindingRequireIsRefusedAndPreferAccepted() throws {
        #expect(refusal("postgres://app@db.example.com/films?channel_binding=require").contains("channel_binding=require"))
        try PostgresConfiguration(url: URL(string: "postgres://app@db.example.com/films?sslmode=require&channel_binding=prefer")!).validate()
    }

    @Test func theModeComesFromTheURLAndPreferWhenItSaysNone() throws {
        #expect(try PostgresEndpoint(URL(string: "postgres://app@db.example.com/films")!, configuration: "c").tls == .prefer)
        let endpoint = try PostgresEndpoint(URL(string: "postgres://app@db.example.com/films?sslmode=verify-ca&sslrootcert=/ca.pem&connect_timeout=3&application_name=api")!, configuration: "c")
        #expect(endpoint.tls == PostgresTLS(.verifyCA, rootCertificate: "/ca.pem"))
        #expect(endpoint.connectTimeout == 3 && endpoint.applicationName == "api")
    }

    @Test(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL: \(PostgresTestServer.unavailableReason)"))
    func requireOnAServerWithoutTLSIsRefusedSayingSo() throws {
        var components = URLComponents(url: PostgresTestServer.url!, resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "sslmode", value: "require")]
        let configuration = PostgresConfiguration(url: components.url!, databaseSchema: "never_made")
        let error = #expect(throws: SwiftDataError.self) { _ = try ModelContainer(for: SealedNote.self, configurations: configuration) }
        #expect("\(error.map { $0 } as Any)".contains("does not offer TLS"))
    }
}
