import Foundation
import Signing

/// Signed, expiring links a holder opens to add a pass (`/passes/{type}/{serial}?expires=…&signature=…`).
///
/// The signature is HMAC-SHA256 over the pass type, serial number and expiry with a server key, so a
/// link cannot be forged for another pass or stretched past its expiry, and the server keeps no state
/// per link.
public struct DownloadLinks: Sendable {
    private let key: Data
    private let lifetime: Duration

    /// Creates links signed with `key` that live for `lifetime`.
    public init(key: Data, lifetime: Duration) {
        self.key = key
        self.lifetime = lifetime
    }

    /// The path and query of a link for a pass, valid from `now` for the lifetime.
    public func path(passTypeIdentifier: String, serialNumber: String, now: Date) -> String {
        let expires = Int64(now.timeIntervalSince1970) + lifetime.components.seconds
        let signature = sign(passTypeIdentifier, serialNumber, expires)
        return "/passes/\(Self.escape(passTypeIdentifier))/\(Self.escape(serialNumber))?expires=\(expires)&signature=\(signature)"
    }

    /// Why a link was refused.
    public enum Refusal: Error, Equatable {
        case missing, malformed, expired, forged
    }

    /// Checks a link's query values for a pass at `now`.
    public func check(passTypeIdentifier: String, serialNumber: String, expires: String?, signature: String?, now: Date) throws(Refusal) {
        guard let expires, let signature else { throw .missing }
        guard let expiry = Int64(expires), signature.count == 64 else { throw .malformed }
        guard constantTimeEquals(signature, sign(passTypeIdentifier, serialNumber, expiry)) else { throw .forged }
        guard Int64(now.timeIntervalSince1970) < expiry else { throw .expired }
    }

    private func sign(_ passTypeIdentifier: String, _ serialNumber: String, _ expires: Int64) -> String {
        // NUL separators: neither identifier can contain one (the router refuses NUL), so no two
        // different triples sign the same bytes.
        let message = Data("\(passTypeIdentifier)\u{0}\(serialNumber)\u{0}\(expires)".utf8)
        return Digest.hmacSHA256(key: key, data: message).map { String(format: "%02x", $0) }.joined()
    }

    public static func escape(_ component: String) -> String {
        component.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? component
    }
}
