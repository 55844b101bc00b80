/// One entry of an archive as its central directory declares it.
///
/// The sizes are the archive's own claims: `ZipReader` checks them against `ZipLimits` before any
/// byte is inflated, and checks the real bytes against them while reading.
public struct ZipEntry: Sendable, Hashable {
    /// The entry's path inside the archive, `/`-separated, as UTF-8.
    public let name: String
    /// The size the archive declares for the entry once decompressed.
    public let uncompressedSize: Int
    /// The size of the entry's bytes as stored in the archive.
    public let compressedSize: Int
    /// The method the entry's bytes are stored with.
    public let compression: ZipCompression
    /// Whether the entry is a directory marker (a name ending in `/`), which holds no bytes.
    public let isDirectory: Bool
    /// Whether the archive marks the entry as a symbolic link: its bytes name another path, which a
    /// reader that unpacks or trusts them must never follow.
    public let isSymbolicLink: Bool
}
