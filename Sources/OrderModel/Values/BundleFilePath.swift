import PassModel

/// A file inside the order package, named from `order.json` (`merchant.logo`, `lineItems[].image`,
/// `payment.transactions[].receipt`, `returns[].returnLabel`, the order provider's tracking logos).
///
/// Order images have no fixed names, unlike pass images (Apple's "Creating the source for an order"),
/// so the JSON is the only place the name is given; it must stay inside the package: relative, with
/// `/` separators, no `..` and no empty segment.
public struct BundleFilePath: Sendable, Hashable, CustomStringConvertible {
    /// The path relative to the package root, e.g. `logo.png` or `images/croissant.png`.
    public let path: String

    /// Accepts a relative path inside the package; `nil` for an absolute path, a URL, `..`, `\` or an empty segment.
    public init?(_ path: String) {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.isEmpty, !path.contains("\\"), !path.contains(":"),
              segments.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else { return nil }
        self.path = path
    }

    /// The file extension in lower case (`png`, `pdf`), or `""` when the name has none.
    public var fileExtension: String {
        guard let name = path.split(separator: "/").last, let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }

    public var description: String { path }
}

extension BundleFilePath: ValidatedString {
    package var text: String { path }
    package static let expected = "a path inside the order package like logo.png or images/logo.png (relative, no .. and no URL)"
}

extension BundleFilePath {
    /// The value a blank model holds until decoding fills in its required file name.
    static let placeholder = BundleFilePath("placeholder.png")!
}
