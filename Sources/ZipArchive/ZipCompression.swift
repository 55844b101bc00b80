/// How an entry's bytes are stored in an archive.
///
/// Wallet accepts both methods (Apple's PassKit Package Format Reference). PNGs are already compressed, so `store` saves
/// the deflate work on the batch hot path; text such as `pass.json` shrinks well with `deflate`.
public enum ZipCompression: Sendable, Hashable {
    /// Bytes are written as they are (ZIP method 0).
    case store
    /// Bytes are deflated with zlib's default level (6) (ZIP method 8).
    case deflate
}
