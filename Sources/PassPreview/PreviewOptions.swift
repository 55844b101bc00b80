import Foundation

/// What a preview shows and how it is written.
public struct PreviewOptions: Sendable, Hashable {
    /// Which face of the pass.
    public enum Side: String, Sendable, Hashable, CaseIterable {
        case front, back
        /// Front and back side by side in one picture.
        case both
    }

    /// The file the picture becomes.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        case png, svg
        public var mediaType: String { self == .png ? "image/png" : "image/svg+xml" }
    }

    public var side: Side
    /// Pixels per point: 1, 2 or 3, as the image scales Wallet uses.
    public var scale: Int
    public var format: Format
    /// The holder's language (`de`, `pt-BR`): picks the `.lproj` and formats numbers and dates; `nil`
    /// shows the untranslated `pass.json` and formats for `en`.
    public var locale: String?
    /// The holder's time zone for dates that do not set `ignoresTimeZone`; `nil` shows each date in
    /// the offset it was written with (how it looks to a holder at the venue).
    public var timeZone: TimeZone?

    public static let scales = 1...3

    public init(side: Side = .front, scale: Int = 2, format: Format = .png, locale: String? = nil, timeZone: TimeZone? = nil) {
        self.side = side
        self.scale = scale
        self.format = format
        self.locale = locale
        self.timeZone = timeZone
    }

    /// The options as a cache key part: `front-2x-png-de`.
    public var cacheKey: String {
        "\(side.rawValue)-\(scale)x-\(format.rawValue)-\(locale ?? "base")-\(timeZone?.identifier ?? "own")"
    }
}
