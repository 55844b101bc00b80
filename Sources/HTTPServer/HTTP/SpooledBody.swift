#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// A request body the server wrote to an unnamed temporary file as it arrived, instead of memory: what a
/// route whose body is ``RouteBody/spooled`` gets (``HTTPRequest/spooledBody``), so an upload of hundreds
/// of megabytes (a bulk job's records) costs disk, not memory.
///
/// The file is unlinked as soon as it is created: nothing is left behind by a crash, and it disappears
/// when the last descriptor closes. The server writes it on one daemon thread, and only then hands it
/// to the handler, which reads it through ``open()``.
public final class SpooledBody: Sendable {
    private let descriptor: Int32
    private let written = Atomic<Int>(0)

    /// Creates an empty spool file in `directory`. Throws when it cannot (no such folder, no space, no
    /// permission), naming the folder.
    public init(directory: String = NSTemporaryDirectory()) throws(HTTPError) {
        var template = Array((directory.hasSuffix("/") ? directory : directory + "/").utf8CString.dropLast()) + Array("passwright-upload-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw HTTPError(.insufficientStorage, "the server cannot keep the upload: no spool file in \(directory) (\(String(validatingCString: strerror(errno)) ?? "error"))")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        self.descriptor = descriptor
    }

    /// A spool file holding `data`: how in-process tests hand a route a spooled body.
    public convenience init(_ data: Data, directory: String = NSTemporaryDirectory()) throws(HTTPError) {
        try self.init(directory: directory)
        var failure: HTTPError?
        data.withUnsafeBytes { bytes in
            do throws(HTTPError) { try append(bytes) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    deinit {
        close(descriptor)
    }

    /// How many bytes arrived.
    public var count: Int { written.load(ordering: .acquiring) }

    /// Appends a chunk. Throws `507 Insufficient Storage` when the disk is full, `500` on another failure.
    func append(_ bytes: UnsafeRawBufferPointer) throws(HTTPError) {
        var offset = 0
        while offset < bytes.count {
            let result = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if result < 0 {
                if errno == EINTR { continue }
                let reason = String(validatingCString: strerror(errno)) ?? "error"
                throw HTTPError(errno == ENOSPC || errno == EDQUOT ? .insufficientStorage : .internalServerError,
                                "the server could not keep the upload (\(reason)); try again later")
            }
            offset += result
        }
        written.add(bytes.count, ordering: .releasing)
    }

    /// A handle reading the body from its start, with its own offset (the file is opened again through
    /// `/proc/self/fd`), so two readers do not disturb each other.
    public func open() throws -> FileHandle {
        let reopened = Glibc.open("/proc/self/fd/\(descriptor)", O_RDONLY | O_CLOEXEC)
        guard reopened >= 0 else { throw HTTPError(.internalServerError, "the spooled upload cannot be read again") }
        return FileHandle(fileDescriptor: reopened, closeOnDealloc: true)
    }
}
