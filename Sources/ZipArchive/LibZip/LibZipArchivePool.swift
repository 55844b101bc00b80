import Foundation
import Locking

/// Archives opened over one archive's bytes, each lent to one caller at a time and kept for the next.
///
/// Every pass copies the template's precompressed entries from such an archive; opening it afresh
/// for each pass (libzip reads the whole central directory) was 2.4 % of a batch pass's time. A
/// `zip_t` is not thread-safe, so an archive is never lent twice at once: parallel callers each get
/// their own, and the pool holds as many as were ever in use together, up to ``keptLimit``.
final class LibZipArchivePool: Sendable {
    /// A `zip_t` that moves between threads but is only ever used by the one caller it is lent to.
    private struct Lent: @unchecked Sendable {  // @unchecked: the pool lends each to one caller at a time
        let archive: LibZipArchive
    }

    /// Idle archives kept beyond this are closed: more callers at once than cores is rare.
    static let keptLimit = 32

    /// The archive every lent one reads a copy of.
    let bytes: Data
    private let idle = Locked<[Lent]>([])

    /// A pool over `bytes`, opened lazily; each archive reads a private copy of them.
    init(_ bytes: Data) {
        self.bytes = bytes
    }

    /// Runs `body` with an archive no other caller is using. One that `body` fails with is dropped
    /// rather than kept, so a half-used archive is never lent again.
    func withArchive<T>(_ body: (LibZipArchive) throws(ZipError) -> T) throws(ZipError) -> T {
        let kept = idle.withLock { idle -> Lent? in idle.popLast() }
        let lent = if let kept { kept } else { try open() }
        let result = try body(lent.archive)
        idle.withLock { idle in
            if idle.count < Self.keptLimit { idle.append(lent) }
        }
        return result
    }

    private func open() throws(ZipError) -> Lent {
        let opened = bytes.withUnsafeBytes { bytes in
            Result { () throws(ZipError) -> Lent in Lent(archive: try LibZipArchive.open(copying: bytes)) }
        }
        return try opened.get()
    }
}
