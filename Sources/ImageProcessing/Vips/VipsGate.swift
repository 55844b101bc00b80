internal import CVips

/// The one place libvips return codes become `ImageProcessingError`s, with libvips' error buffer
/// attached; also starts libvips once per process.
enum VipsGate {
    /// `vips_init` must run once before any operation; libvips is thread-safe afterwards.
    private static let started: Bool = passwright_vips_init() == 0

    /// Makes sure libvips is started and its (process-wide) error buffer is empty.
    static func begin() {
        precondition(started, "libvips failed to start: \(drainErrors())")
        vips_error_clear()
    }

    /// libvips' error buffer as one line, emptied.
    static func drainErrors() -> String {
        let text = vips_error_buffer().map { String(cString: $0) } ?? ""
        vips_error_clear()
        let line = text.split(separator: "\n").joined(separator: "; ")
        return line.isEmpty ? "no error reported" : line
    }

    /// Throws unless libvips returned 0.
    static func check(_ operation: String, _ code: Int32) throws {
        guard code == 0 else { throw ImageProcessingError.processing(operation: operation, details: drainErrors()) }
    }

    /// Adopts the `out` image of an operation that returned `code`.
    static func adopt(_ operation: String, code: Int32, _ out: UnsafeMutablePointer<VipsImage>?) throws -> VipsImageObject {
        try check(operation, code)
        guard let out else { throw ImageProcessingError.processing(operation: operation, details: "no image returned") }
        return VipsImageObject(takingOwnershipOf: out)
    }
}
