internal import CMicroHTTPD
import Foundation

/// Decodes a buffered form body with libmicrohttpd's post processor (`MHD_create_post_processor`,
/// `MHD_post_process`, `MHD_destroy_post_processor`), so the server has one form parser and it is the
/// library's, fuzzed and used by every libmicrohttpd server.
///
/// libmicrohttpd 0.9.75 creates a post processor only for a connection (it reads the request's
/// `Content-Type` from it, and uses its daemon's unescaper), so this runs on the daemon thread, inside
/// the access-handler call that saw the end of the body, while the connection is ours.
struct MicroHTTPDPostProcessor {
    /// Bytes libmicrohttpd buffers for a key or a chunk of a value (it asks for at least 256).
    private static let bufferSize = 16 << 10

    let connection: MicroHTTPDConnection

    /// The form in `body`, or the `400` that says why it is not one.
    func decode(_ body: Data, contentType: MediaType) -> Result<HTTPForm, HTTPError> {
        if contentType.accepts(.multipartForm), contentType.boundary?.isEmpty ?? true {
            return .failure(HTTPError(.badRequest, "Content-Type multipart/form-data has no boundary"))
        }
        let collector = FormCollector()
        let context = Unmanaged.passUnretained(collector).toOpaque()
        let processed: Bool = withExtendedLifetime(collector) {
            guard let processor = MHD_create_post_processor(connection.pointer, Self.bufferSize, collectFormValue, context) else {
                return false
            }
            let parsed = body.isEmpty || body.withUnsafeBytes { bytes in
                MHD_post_process(processor, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count) == .YES
            }
            // Also delivers a URL-encoded body's last value, which no `&` ends; `NO` for a part left open.
            let finished = MHD_destroy_post_processor(processor) == .YES
            return parsed && finished
        }
        guard processed else { return .failure(HTTPError(.badRequest, "the body is not a well-formed \(contentType.type)/\(contentType.subtype) form")) }
        return .success(collector.form())
    }
}

/// What the post processor reported so far: each value in the pieces it came in.
private final class FormCollector {
    private struct Entry {
        let name: String
        let fileName: String?
        let contentType: String?
        var data = Data()
    }

    private var entries: [Entry] = []

    /// A piece of a value: `offset` 0 starts a new one, a later offset continues the last.
    func add(name: String, fileName: String?, contentType: String?, bytes: UnsafeRawBufferPointer, offset: UInt64) {
        if offset == 0 || entries.last?.name != name {
            entries.append(Entry(name: name, fileName: fileName, contentType: contentType))
        }
        entries[entries.count - 1].data.append(contentsOf: bytes)
    }

    func form() -> HTTPForm {
        var form = HTTPForm()
        for entry in entries {
            if let fileName = entry.fileName {
                form.add(file: entry.name, HTTPForm.File(fileName: fileName, contentType: entry.contentType, data: entry.data))
            } else {
                form.add(field: entry.name, value: String(decoding: entry.data, as: UTF8.self))
            }
        }
        return form
    }
}

/// `MHD_PostDataIterator` handing each piece to the `FormCollector` passed as context.
private func collectFormValue(
    _ context: UnsafeMutableRawPointer?,
    _ kind: MHD_ValueKind,
    _ key: UnsafePointer<CChar>?,
    _ fileName: UnsafePointer<CChar>?,
    _ contentType: UnsafePointer<CChar>?,
    _ transferEncoding: UnsafePointer<CChar>?,
    _ data: UnsafePointer<CChar>?,
    _ offset: UInt64,
    _ size: Int
) -> MHD_Result {
    guard let context, let key else { return .YES }
    let collector = Unmanaged<FormCollector>.fromOpaque(context).takeUnretainedValue()
    collector.add(
        name: String(cString: key), fileName: fileName.map { String(cString: $0) }, contentType: contentType.map { String(cString: $0) },
        bytes: UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size), offset: offset)
    return .YES
}
