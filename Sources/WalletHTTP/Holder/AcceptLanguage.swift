import Foundation

/// The languages of an `Accept-Language` header, most wanted first (RFC 9110 §12.5.4): `de-DE,
/// de;q=0.9, en;q=0.5` → `["de-DE", "de", "en"]`. Ranges with `q=0`, `*` and malformed tags are
/// dropped; at most ``limit`` are kept, so a long header costs nothing.
enum AcceptLanguage {
    static let limit = 16

    static func languages(_ header: String?) -> [String] {
        guard let header else { return [] }
        var ranked: [(tag: String, quality: Double, index: Int)] = []
        for (index, part) in header.split(separator: ",", maxSplits: 64).prefix(64).enumerated() {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = pieces.first, isTag(tag) else { continue }
            var quality = 1.0
            for parameter in pieces.dropFirst() where parameter.lowercased().hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            if quality > 0 { ranked.append((tag, quality, index)) }
        }
        // Stable: equal qualities keep the header's order.
        return ranked.sorted { $0.quality != $1.quality ? $0.quality > $1.quality : $0.index < $1.index }.prefix(limit).map(\.tag)
    }

    /// A language tag of letters and digits in dash-separated parts of 1–8 (`*` is not one).
    private static func isTag(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return !parts.isEmpty && parts.count <= 8 && parts.allSatisfy { part in
            (1...8).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        } && parts[0].allSatisfy(\.isLetter)
    }
}
