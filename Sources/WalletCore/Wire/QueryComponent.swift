import Foundation

/// A name or a value written as one component of a URL query (`key=value`): everything but RFC
/// 3986's unreserved ASCII characters percent-escaped as UTF-8, so `&`, `=`, `+`, `#` and any
/// non-ASCII letter (which Foundation's `alphanumerics` would let through raw, into a `Location`
/// header) cannot change what the query says. The HTTP server decodes each component back.
public enum QueryComponent {
    /// `text` as one query component.
    public static func escaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    /// `name=value` pairs joined with `&`, each side escaped.
    public static func query(_ items: [(name: String, value: String)]) -> String {
        items.map { "\(escaped($0.name))=\(escaped($0.value))" }.joined(separator: "&")
    }

    /// RFC 3986 `unreserved`, built once.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
