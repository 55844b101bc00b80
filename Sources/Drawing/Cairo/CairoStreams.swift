import Foundation
internal import CPangoCairo

/// Collects what Cairo writes to a stream (a PNG or an SVG document).
final class ByteSink {
    var data = Data()

    /// Runs `body` with a closure pointer and write function Cairo can call back.
    func withCallback<Result>(_ body: (UnsafeMutableRawPointer, cairo_write_func_t) -> Result) -> Result {
        body(Unmanaged.passUnretained(self).toOpaque(), { closure, bytes, length in
            guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
            return CAIRO_STATUS_SUCCESS
        })
    }
}

/// Feeds bytes to Cairo's PNG reader.
final class ByteSource {
    private let data: Data
    private var offset = 0

    init(_ data: Data) { self.data = data }

    func withCallback<Result>(_ body: (UnsafeMutableRawPointer, cairo_read_func_t) -> Result) -> Result {
        body(Unmanaged.passUnretained(self).toOpaque(), { closure, buffer, length in
            guard let closure, let buffer else { return CAIRO_STATUS_READ_ERROR }
            let source = Unmanaged<ByteSource>.fromOpaque(closure).takeUnretainedValue()
            let wanted = Int(length)
            guard source.offset + wanted <= source.data.count else { return CAIRO_STATUS_READ_ERROR }
            source.data.withUnsafeBytes { bytes in
                buffer.update(from: bytes.baseAddress!.advanced(by: source.offset).assumingMemoryBound(to: UInt8.self), count: wanted)
            }
            source.offset += wanted
            return CAIRO_STATUS_SUCCESS
        })
    }
}

/// Cairo's status codes as errors (the one gate, style rule 3).
enum CairoGate {
    static func check(_ operation: String, _ status: cairo_status_t) throws(DrawingError) {
        guard status != CAIRO_STATUS_SUCCESS else { return }
        throw .cairo(operation: operation, status: String(cString: cairo_status_to_string(status)))
    }
}
