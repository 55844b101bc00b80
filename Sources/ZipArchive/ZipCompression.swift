/// How an entry's bytes are stored in an archive.
///
/// Wallet accepts both methods (Apple's "Building a Pass"). Text such as `pass.json` shrinks well with
/// `deflate`; PNGs hardly shrink, but a template's are deflated once and copied as they are
/// (``ZipPrecompressedEntries``), which is cheaper per pass than storing them.
public enum ZipCompression: Sendable, Hashable {
    /// Bytes are written as they are (ZIP method 0).
    case store
    /// Bytes are deflated with zlib's default level (6) (ZIP method 8).
    case deflate
}
