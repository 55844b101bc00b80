/// Bounds on what reading an archive may cost, for archives that come from outside.
///
/// A `.pkpass` or `.pkpasses` uploaded to the server may be hostile: a zip bomb, thousands of
/// entries, or sizes that lie. Each bound is checked against the declared sizes before anything is
/// inflated, and again against the bytes actually produced while inflating.
public struct ZipLimits: Sendable, Hashable {
    /// The most entries an archive may hold (directory markers included).
    public var maxEntries: Int
    /// The most bytes one entry may inflate to.
    public var maxEntrySize: Int
    /// The most bytes all entries together may inflate to.
    public var maxTotalUncompressedSize: Int
    /// The highest allowed ratio of an entry's uncompressed size to its compressed size.
    public var maxCompressionRatio: Int

    /// Makes limits from explicit bounds; each must be positive.
    public init(maxEntries: Int, maxEntrySize: Int, maxTotalUncompressedSize: Int, maxCompressionRatio: Int) {
        precondition(maxEntries > 0 && maxEntrySize > 0 && maxTotalUncompressedSize > 0 && maxCompressionRatio > 0,
                     "ZipLimits bounds must be positive")
        self.maxEntries = maxEntries
        self.maxEntrySize = maxEntrySize
        self.maxTotalUncompressedSize = maxTotalUncompressedSize
        self.maxCompressionRatio = maxCompressionRatio
    }

    /// Limits that fit any real pass or pass bundle with room to spare.
    ///
    /// A pass holds `pass.json`, a manifest, a signature and a few dozen images and `.lproj`
    /// files; a `.pkpasses` holds at most 10 passes (Apple: "up to 10 passes" per bundle). PNGs and JSON never
    /// deflate anywhere near 100:1, while a bomb of zeros does (about 1000:1).
    public static let untrusted = ZipLimits(
        maxEntries: 256,
        maxEntrySize: 20 * 1024 * 1024,
        maxTotalUncompressedSize: 50 * 1024 * 1024,
        maxCompressionRatio: 100
    )
}
