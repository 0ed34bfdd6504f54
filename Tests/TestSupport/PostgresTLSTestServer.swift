import Foundation

/// A second throw-away PostgreSQL cluster that accepts only TLS connections over TCP, with a
/// certificate for `localhost` (and no other name, not even 127.0.0.1) signed by a throw-away
/// authority, and three users: one with a SCRAM password, one with an md5 password, one
/// authenticated by a client certificate. Started on first use, removed when the process exits.
public enum PostgresTLSTestServer {
    public struct Server: Sendable {
        public let port: Int
        /// The authority that signed the server's certificate (PEM).
        public let authority: String
        /// Another authority, which signed nothing the server presents (PEM).
        public let otherAuthority: String
        /// A client certificate for the user `cert_user`, signed by ``authority``, and its key.
        public let clientCertificate: String
        public let clientKey: String

        public static let scramUser = (name: "scram_user", password: "scram-secret-4917")
        public static let md5User = (name: "md5_user", password: "md5-secret-2286")
        public static let certificateUser = "cert_user"
    }

    /// The server; `nil` when it could not start (``unavailableReason`` says why).
    public static var server: Server? { started.server }
    public static var unavailableReason: String { started.reason ?? "" }

    private static let started: (server: Server?, reason: String?) = start()

    private static func start() -> (Server?, String?) {
        if ProcessInfo.processInfo.environment["OSD_POSTGRES"] == "off" { return (nil, "OSD_POSTGRES=off") }
        var files: (authority: String, otherAuthority: String, clientCertificate: String, clientKey: String)?
        let started = PostgresCluster.start(named: "postgres-tls") { directory, data in
            let certificates = directory.appendingPathComponent("certificates")
            try FileManager.default.createDirectory(at: certificates, withIntermediateDirectories: true)
            func path(_ name: String) -> String { certificates.appendingPathComponent(name).path }
            func openssl(_ arguments: [String]) throws {
                let result = PostgresCluster.run("/usr/bin/openssl", arguments)
                guard result.status == 0 else { throw CertificateFailure(command: arguments.joined(separator: " "), output: result.output) }
            }
            let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
            for authority in ["authority", "other-authority"] {
                try openssl(["req", "-x509"] + key + ["-keyout", path("\(authority).key"), "-out", path("\(authority).crt"), "-days", "3", "-subj", "/CN=OpenSwiftData test \(authority)"])
            }
            func issue(_ name: String, subject: String, extensions: String) throws {
                try openssl(["req"] + key + ["-keyout", path("\(name).key"), "-out", path("\(name).csr"), "-subj", subject])
                try extensions.write(toFile: path("\(name).ext"), atomically: true, encoding: .utf8)
                try openssl(["x509", "-req", "-in", path("\(name).csr"), "-CA", path("authority.crt"), "-CAkey", path("authority.key"), "-CAcreateserial",
                             "-out", path("\(name).crt"), "-days", "3", "-extfile", path("\(name).ext")])
            }
            try issue("server", subject: "/CN=localhost", extensions: "subjectAltName=DNS:localhost\n")
            try issue("client", subject: "/CN=\(Server.certificateUser)", extensions: "extendedKeyUsage=clientAuth\n")
            // The server reads its key only when its user alone can.
            let serverKey = data.appendingPathComponent("server.key")
            try FileManager.default.copyItem(atPath: path("server.key"), toPath: serverKey.path)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: serverKey.path)
            try FileManager.default.copyItem(atPath: path("server.crt"), toPath: data.appendingPathComponent("server.crt").path)
            try FileManager.default.copyItem(atPath: path("authority.crt"), toPath: data.appendingPathComponent("authority.crt").path)
            try """
                local all all trust
                hostssl all \(Server.md5User.name) 127.0.0.1/32 md5
                hostssl all \(Server.certificateUser) 127.0.0.1/32 cert
                hostssl all all 127.0.0.1/32 scram-sha-256
                hostnossl all all 0.0.0.0/0 reject

                """.write(to: data.appendingPathComponent("pg_hba.conf"), atomically: true, encoding: .utf8)
            files = (path("authority.crt"), path("other-authority.crt"), path("client.crt"), path("client.key"))
            return "-c ssl=on -c ssl_cert_file=server.crt -c ssl_key_file=server.key -c ssl_ca_file=authority.crt"
        }
        switch started {
        case .failure(let unavailable):
            return (nil, unavailable.reason)
        case .success(let cluster):
            let roles = cluster.superuserSQL("""
                SET password_encryption = 'md5';
                CREATE ROLE \(Server.md5User.name) LOGIN PASSWORD '\(Server.md5User.password)';
                SET password_encryption = 'scram-sha-256';
                CREATE ROLE \(Server.scramUser.name) LOGIN PASSWORD '\(Server.scramUser.password)';
                CREATE ROLE \(Server.certificateUser) LOGIN;
                GRANT CREATE ON DATABASE postgres TO \(Server.md5User.name), \(Server.scramUser.name), \(Server.certificateUser);
                """)
            guard roles.status == 0, let files else { return (nil, "the TLS server's users could not be made: \(roles.output)") }
            return (Server(port: cluster.port, authority: files.authority, otherAuthority: files.otherAuthority,
                           clientCertificate: files.clientCertificate, clientKey: files.clientKey), nil)
        }
    }

    struct CertificateFailure: Error { let command: String; let output: String }
}
