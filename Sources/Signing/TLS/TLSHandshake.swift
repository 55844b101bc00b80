import Foundation

/// What one TLS handshake with a server showed: the terms it agreed to and the certificates it sent,
/// read the way Apple's App Transport Security judges a web service Wallet may call.
public struct TLSHandshake: Sendable {
    /// OpenSSL's name of the version agreed (`TLSv1.3`, `TLSv1.2`, `TLSv1`).
    public var protocolVersion: String
    /// The cipher suite agreed (`TLS_AES_128_GCM_SHA256`, `ECDHE-RSA-AES128-GCM-SHA256`).
    public var cipher: String
    /// How the key was agreed: `ECDHE`, `DHE`, `RSA`, or `any` under TLS 1.3 (always ephemeral there).
    public var keyExchange: String
    /// `nil` when the chain leads to a trusted root and names the host; else OpenSSL's reason
    /// (`self-signed certificate`, `certificate has expired`, `hostname mismatch`).
    public var verificationFailure: String?
    /// The certificates the server sent, its own first.
    public var chain: [Certificate]
    /// The server certificate's key: `RSA`, `EC` or OpenSSL's short name of another type.
    public var keyType: String
    public var keyBits: Int
    /// The digest of the server certificate's signature (`SHA256`, `SHA1`).
    public var signatureDigest: String

    /// Whether the version is TLS 1.2 or later, as App Transport Security requires.
    public var isTLS12OrLater: Bool { protocolVersion == "TLSv1.2" || protocolVersion == "TLSv1.3" }

    /// Whether the key agreement is forward secret the way ATS counts it (ECDHE; every TLS 1.3 suite).
    public var isForwardSecret: Bool { protocolVersion == "TLSv1.3" || keyExchange == "ECDHE" }

    /// Whether the server certificate is signed with SHA-256 or stronger, as ATS requires.
    public var hasStrongSignature: Bool { ["SHA256", "SHA384", "SHA512"].contains(signatureDigest.uppercased()) }

    /// Whether the server certificate's key is as large as ATS requires (RSA 2048, EC 256 bits).
    public var hasStrongKey: Bool {
        switch keyType {
        case "RSA": keyBits >= 2048
        case "EC": keyBits >= 256
        default: false
        }
    }
}

/// What a probe offers the server.
public enum TLSOffer: Sendable {
    /// What an iPhone offers a web service under App Transport Security: TLS 1.3, and TLS 1.2 with
    /// only the ECDHE suites with AES ATS lists. Keys and signatures of any size are accepted, so a
    /// weak certificate is reported rather than refused.
    case appTransportSecurity
    /// TLS 1.2 and 1.3 with every cipher: how a probe learns that a server which refused ATS's offer
    /// speaks current TLS, but with no cipher ATS allows.
    case anyCipher
    /// TLS 1.0 and 1.1 only, every cipher: how a probe learns that a server speaks only versions
    /// Wallet no longer does.
    case legacy
}

/// Why a probe learnt nothing about the server's TLS.
public enum TLSProbeError: Error, Equatable, CustomStringConvertible {
    /// No TCP connection (refused, unreachable, name not resolved, timed out).
    case connectFailed(server: String, detail: String)
    /// The server took the connection but no handshake with the versions offered completed.
    case handshakeFailed(server: String, detail: String)

    public var description: String {
        switch self {
        case .connectFailed(let server, let detail): "Cannot connect to \(server): \(detail)"
        case .handshakeFailed(let server, let detail): "No TLS handshake with \(server): \(detail)"
        }
    }
}
