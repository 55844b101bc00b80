import Foundation
import PassModel

/// An absolute URL (`uri` in Apple's Order documentation): a scheme and, for web links, a host.
///
/// Wallet opens these links itself, so a relative reference (`/orders/42`) or a bare host has nothing
/// to resolve against; rejecting it at decoding puts the error at its JSON path. Other schemes are
/// accepted because an app's `launchURL` is usually its own (`bakery://orders/42`).
public struct OrderURL: Sendable, Hashable, CustomStringConvertible {
    /// The URL as written in `order.json`.
    public let text: String

    /// Accepts an absolute URL; `nil` for a relative reference, an http(s) URL without a host, or
    /// text `URLComponents` cannot read.
    public init?(_ text: String) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(), !scheme.isEmpty else {
            return nil
        }
        if scheme == "http" || scheme == "https", components.host?.isEmpty ?? true { return nil }
        self.text = text
    }

    /// Whether the link is encrypted; Wallet's web service calls need it, other links should have it.
    public var isHTTPS: Bool { text.lowercased().hasPrefix("https://") }

    public var description: String { text }
}

extension OrderURL: ValidatedString {
    package static let expected = "an absolute URL like https://example.com/orders/42"
}

extension OrderURL {
    /// The value a blank model holds until decoding fills in its required URL.
    static let placeholder = OrderURL("https://invalid.example")!
}
