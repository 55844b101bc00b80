import PassModel

/// An absolute `https://` URL, for the keys Apple requires to be encrypted (`webServiceURL`: the
/// device sends the order's authentication token to it).
///
/// A type of its own, so an http web service is a decoding error at its JSON path rather than a
/// rule someone has to remember to run.
public struct HTTPSURL: Sendable, Hashable, CustomStringConvertible {
    /// The URL as written in `order.json`.
    public let text: String

    /// Accepts an absolute `https://` URL with a host; `nil` for anything else (http included).
    public init?(_ text: String) {
        guard let url = OrderURL(text), url.isHTTPS else { return nil }
        self.text = text
    }

    /// The same URL as a general ``OrderURL``.
    public var url: OrderURL {
        guard let url = OrderURL(text) else { preconditionFailure("an HTTPSURL is always an absolute URL") }
        return url
    }

    public var description: String { text }
}

extension HTTPSURL: ValidatedString {
    package static let expected = "an https URL like https://example.com/orders (Apple requires https here)"
}
