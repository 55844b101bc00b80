import Foundation

/// A signed pass's `.pkpass` in two pieces: the bytes every archive of its compiler begins with (the
/// template's files, one value shared by all of them) and the bytes that are the pass's own
/// (`pass.json`, `manifest.json`, `signature` and the central directory, a few KB).
///
/// What a server keeps per pass: as small as the signed parts, yet serving it is one copy, where
/// assembling the archive from the signed parts again took libzip half of a get pass's CPU (47 of
/// 90 µs, BENCHMARKS.md, "Get pass against a pass-sized answer").
public struct PackagedPass: Sendable, Hashable {
    /// The compiler's shared prefix (empty when this archive did not begin with it).
    public let shared: Data
    /// The rest of the archive.
    public let own: Data

    /// The two pieces as given; `shared + own` must be the archive.
    public init(shared: Data, own: Data) {
        (self.shared, self.own) = (shared, own)
    }

    /// The whole `.pkpass`.
    public var archive: Data {
        var archive = Data(capacity: shared.count + own.count)
        archive.append(shared)
        archive.append(own)
        return archive
    }

    /// The bytes this pass adds to what its compiler's passes share.
    public var size: Int { own.count }
}
