import HTTPServer
import PassPreview
import WalletCore

/// The query parameters both preview routes take (`side`, `scale`, `format`, `locale`), read into
/// ``PreviewOptions``. A bad value throws ``PreviewError/invalidOption(name:message:)`` naming the
/// parameter, which answers 400 with the name in `parameter` (``ProblemResponses``).
enum PreviewQuery {
    /// The parameters as the OpenAPI document lists them, each with its schema.
    static let parameters = [
        RouteParameter("side", in: .query, schema: "PreviewSide"), RouteParameter("scale", in: .query, schema: "PreviewScale"),
        RouteParameter("format", in: .query, schema: "PreviewFormat"), RouteParameter("locale", in: .query, schema: "PreviewLocale"),
    ]

    /// The longest locale accepted: a BCP 47 tag with language, script, region and a variant
    /// (`sr-Latn-RS-ekavsk`) fits with room to spare; RFC 5646 §4.4.1 asks for at least 35.
    static let maxLocaleLength = 35

    /// The options a request asks for; an absent parameter keeps ``PreviewOptions``' default
    /// (front, @2x, PNG, the untranslated `pass.json`).
    static func options(_ request: HTTPRequest) throws(PreviewError) -> PreviewOptions {
        var options = PreviewOptions()
        if let side = request.query("side") {
            guard let value = PreviewOptions.Side(rawValue: side) else {
                throw .invalidOption(name: "side", message: "front, back or both, not '\(side.prefix(40))'")
            }
            options.side = value
        }
        if let scale = request.query("scale") {
            guard let value = Int(scale), PreviewOptions.scales.contains(value) else {
                throw .invalidOption(name: "scale", message: "1, 2 or 3 (Wallet's @1x, @2x and @3x), not '\(scale.prefix(40))'")
            }
            options.scale = value
        }
        if let format = request.query("format") {
            guard let value = PreviewOptions.Format(rawValue: format) else {
                throw .invalidOption(name: "format", message: "png or svg, not '\(format.prefix(40))'")
            }
            options.format = value
        }
        if let locale = request.query("locale") {
            guard isLocale(locale) else {
                throw .invalidOption(
                    name: "locale",
                    message: "a language tag such as de or pt-BR: letters and digits in parts joined by '-', at most \(maxLocaleLength) characters, not '\(locale.prefix(40))'")
            }
            options.locale = locale
        }
        return options
    }

    /// A BCP 47-shaped tag: ASCII letters and digits in non-empty parts joined by `-`, starting with
    /// a letter. Not checked against the registry: an unknown language just finds no `.lproj`.
    static func isLocale(_ text: String) -> Bool {
        guard (1...maxLocaleLength).contains(text.utf8.count), text.utf8.first.map(isLetter) == true else { return false }
        let parts = text.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        return parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { isLetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }
}
