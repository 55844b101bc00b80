import Foundation
import Signing

/// Signed, expiring links a holder opens to add a pass (`/passes/{type}/{serial}?expires=…&signature=…`).
///
/// The signature is HMAC-SHA256 over the pass type, serial number and expiry with a server key, so a
/// link cannot be forged for another pass or stretched past its expiry, and the server keeps no state
/// per link. One signature opens every ``Resource`` of the pass's holder page: the page links to
/// its own download and picture without a second secret.
public struct DownloadLinks: Sendable {
    private let key: Data
    private let lifetime: Duration

    /// Creates links signed with `key` that live for `lifetime`.
    public init(key: Data, lifetime: Duration) {
        self.key = key
        self.lifetime = lifetime
    }

    /// What a link opens, each a path below the pass's page.
    public enum Resource: String, Sendable, CaseIterable {
        /// The holder page.
        case page = ""
        /// The signed `.pkpass`.
        case pass = "pass.pkpass"
        /// The front of the pass as a PNG (link previews, e-mails).
        case picture = "picture.png"
        /// A QR code of the page's link, for print.
        case qrCodePNG = "qr.png", qrCodeSVG = "qr.svg"
    }

    /// The path and query of a link to `resource` of a pass, valid from `now` for the lifetime.
    /// Links made with the same `now` share their expiry and signature.
    public func path(passTypeIdentifier: String, serialNumber: String, now: Date, resource: Resource = .page) -> String {
        let expires = expiry(from: now)
        return Self.path(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber, resource: resource,
                         expires: String(expires), signature: sign(passTypeIdentifier, serialNumber, expires))
    }

    /// When a link made at `now` expires, in seconds since 1970.
    public func expiry(from now: Date) -> Int64 { Int64(now.timeIntervalSince1970) + lifetime.components.seconds }

    /// The path of `resource` under a link's own `expires` and `signature` (as a page links to its parts).
    public static func path(passTypeIdentifier: String, serialNumber: String, resource: Resource, expires: String, signature: String) -> String {
        let page = "/passes/\(PathSegment.escaped(passTypeIdentifier))/\(PathSegment.escaped(serialNumber))"
        let query = QueryComponent.query([("expires", expires), ("signature", signature)])
        return resource == .page ? "\(page)?\(query)" : "\(page)/\(resource.rawValue)?\(query)"
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
        return Digest.hex(Digest.hmacSHA256(key: key, data: message))
    }
}
