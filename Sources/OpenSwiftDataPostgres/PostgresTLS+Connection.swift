import Foundation
import NIOSSL
import OpenSwiftData
import PostgresNIO

extension PostgresTLS {
    /// The TLS settings of each connection attempt, in order: `allow` tries without TLS first
    /// and with it when the server refuses that; every other mode makes one attempt.
    ///
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` naming a certificate or key file that
    ///   cannot be read.
    func connectionAttempts(configuration: String) throws -> [PostgresConnection.Configuration.TLS] {
        switch effectiveMode {
        case .disable: [.disable]
        case .allow: [.disable, .require(try sslContext(configuration: configuration))]
        case .prefer: [.prefer(try sslContext(configuration: configuration))]
        case .require, .verifyCA, .verifyFull: [.require(try sslContext(configuration: configuration))]
        }
    }

    private func sslContext(configuration: String) throws -> NIOSSLContext {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch effectiveMode {
        case .verifyFull: tls.certificateVerification = .fullVerification
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        default: tls.certificateVerification = .none
        }
        func refuse(_ parameter: String, _ file: String, _ error: any Error) -> SwiftDataError {
            SwiftDataError.loadIssueModelContainer.explaining(
                "the configuration \(configuration) names \(parameter) \(file), which could not be read as PEM (\(error)); give the path of a PEM file the process can read")
        }
        if verifiesCertificate, let file = rootCertificate, file != "system" {
            do {
                tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(file))
            } catch {
                throw refuse("sslrootcert", file, error)
            }
        }
        if let certificate = clientCertificate, let key = clientKey {
            do {
                tls.certificateChain = try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) }
            } catch {
                throw refuse("sslcert", certificate, error)
            }
            do {
                tls.privateKey = .privateKey(try NIOSSLPrivateKey(file: key, format: .pem))
            } catch {
                throw refuse("sslkey", key, error)
            }
        }
        do {
            return try NIOSSLContext(configuration: tls)
        } catch {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "the configuration \(configuration)'s TLS settings (sslmode=\(mode.rawValue)) could not be set up: \(error)")
        }
    }

    /// What went wrong connecting, in words that say what of TLS was at fault and how to fix it;
    /// never the password.
    func describeConnectionFailure(_ error: any Error, host: String) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        if error.code == .sslUnsupported {
            return "the server does not offer TLS, which sslmode=\(mode.rawValue) requires: turn ssl on in the server's postgresql.conf, or use sslmode=prefer"
        }
        if let underlying = error.underlying {
            if let extra = underlying as? NIOSSLExtraError, extra == .failedToValidateHostname {
                return "the server's certificate is not issued for \(host) (sslmode=verify-full checks the host name): connect with the name the certificate names, or use sslmode=verify-ca"
            }
            if "\(underlying)".contains("CERTIFICATE_VERIFY_FAILED") {
                return "the TLS handshake failed: the server's certificate is not signed by \(rootsDescription) (sslmode=\(effectiveMode.rawValue)); give the authority that signed it as sslrootcert"
            }
            if underlying is NIOSSLError || underlying is NIOSSLExtraError || underlying is BoringSSLError {
                return "the TLS handshake failed (sslmode=\(effectiveMode.rawValue)): \(underlying)"
            }
            return "\(underlying)"
        }
        if let message = error.serverInfo?[.message] {
            let code = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
            let hint = message.contains("no encryption")
                ? "; the server accepts only TLS connections from here: use sslmode=require, or verify-full with sslrootcert"
                : ""
            return message + code + hint
        }
        return "\(error.code)"
    }
}
