import Foundation
import OpenSwiftData

/// How a store's connections use TLS, as libpq spells it: the URL's `sslmode`, `sslrootcert`,
/// `sslcert` and `sslkey` parameters, or ``PostgresConfiguration/tls``.
///
/// ```swift
/// // What a hosting provider's URL says…
/// URL(string: "postgres://app:secret@db.example.com/films?sslmode=verify-full&sslrootcert=/etc/ssl/provider-ca.pem")!
/// // …or the same in the configuration.
/// configuration.tls = PostgresTLS(.verifyFull, rootCertificate: "/etc/ssl/provider-ca.pem")
/// ```
public struct PostgresTLS: Sendable, Hashable {
    /// Whether a connection is encrypted, and what of the server's certificate is checked.
    public enum Mode: String, Sendable, CaseIterable {
        /// Never TLS.
        case disable
        /// Without TLS first; with it (certificate unchecked) when the server refuses that.
        case allow
        /// With TLS (certificate unchecked) when the server offers it, without otherwise: libpq's
        /// default, and the store's when the URL names no `sslmode`.
        case prefer
        /// Always TLS; the certificate is not checked, unless ``PostgresTLS/rootCertificate`` is
        /// given, which makes this ``verifyCA`` (as libpq does).
        case require
        /// Always TLS, with a certificate signed by a trusted authority (any host name).
        case verifyCA = "verify-ca"
        /// Always TLS, with a certificate signed by a trusted authority and issued for the host
        /// the URL names: the only mode a man in the middle cannot get past.
        case verifyFull = "verify-full"
    }

    /// Whether connections are encrypted, and what of the server's certificate is checked.
    public var mode: Mode
    /// A PEM file of the authorities the server's certificate must be signed by (`sslrootcert`);
    /// `nil`, or `"system"`, for the system's trusted roots.
    public var rootCertificate: String?
    /// A PEM file of the certificate the store presents to the server (`sslcert`), for a server
    /// that authenticates clients by certificate.
    public var clientCertificate: String?
    /// The PEM file of that certificate's private key (`sslkey`).
    public var clientKey: String?

    /// TLS settings.
    ///
    /// - Parameters:
    ///   - mode: Whether connections are encrypted, and what of the certificate is checked.
    ///   - rootCertificate: The authorities to trust (a PEM file); the system's when `nil`.
    ///   - clientCertificate: A client certificate to present (a PEM file).
    ///   - clientKey: Its private key (a PEM file).
    public init(_ mode: Mode, rootCertificate: String? = nil, clientCertificate: String? = nil, clientKey: String? = nil) {
        self.mode = mode
        self.rootCertificate = rootCertificate
        self.clientCertificate = clientCertificate
        self.clientKey = clientKey
    }

    /// libpq's default: TLS when the server offers it.
    public static let prefer = PostgresTLS(.prefer)

    /// The mode after libpq's rule that a root certificate turns `require` into `verify-ca`.
    var effectiveMode: Mode {
        mode == .require && rootCertificate != nil ? .verifyCA : mode
    }

    /// Whether the server's certificate is checked against trusted authorities.
    var verifiesCertificate: Bool {
        effectiveMode == .verifyCA || effectiveMode == .verifyFull
    }

    /// The trusted roots as messages name them.
    var rootsDescription: String {
        switch rootCertificate {
        case nil, "system"?: "the system's trusted roots"
        case let file?: "the authorities in sslrootcert \(file)"
        }
    }
}
