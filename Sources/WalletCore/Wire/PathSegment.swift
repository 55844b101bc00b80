import Foundation

/// A name (a pass type identifier, a serial number, a template or order identifier) written as one
/// segment of a URL path: everything a path may not hold, and `/`, percent-escaped. The router
/// decodes each segment back; download links, `Location` headers and the CLI's calls write them.
public enum PathSegment {
    /// `text` as one path segment.
    public static func escaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// What a segment keeps unescaped, built once: building it for every link was 3 % of an issue's
    /// CPU (BENCHMARKS.md). (`?` and `#` are not in `urlPathAllowed` to begin with.)
    private static let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))
}
