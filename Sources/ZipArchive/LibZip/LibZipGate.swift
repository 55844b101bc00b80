internal import CZip

/// The one place where libzip's failures become `ZipError`s, with the operation and entry attached.
enum LibZipGate {
    /// Reads libzip's text for an error structure (an archive's, a file's or a source's).
    static func error(_ error: UnsafeMutablePointer<zip_error_t>, operation: String, entry: String?) -> ZipError {
        .libzip(operation: operation, entry: entry, message: String(cString: zip_error_strerror(error)))
    }

    /// libzip's own text for an error code, for failures found before calling libzip.
    static func error(code: Int32, operation: String, entry: String?) -> ZipError {
        var failure = zip_error_t()
        zip_error_init_with_code(&failure, code)
        defer { zip_error_fini(&failure) }
        return error(&failure, operation: operation, entry: entry)
    }

    /// Throws the archive's pending error when a libzip call returned a negative status.
    static func check(_ status: Int64, archive: OpaquePointer, operation: String, entry: String? = nil) throws(ZipError) {
        guard status < 0 else { return }
        throw error(zip_get_error(archive), operation: operation, entry: entry)
    }

    /// Throws the source's pending error when a libzip source call returned a negative status.
    static func check(_ status: Int64, source: OpaquePointer, operation: String) throws(ZipError) {
        guard status < 0 else { return }
        throw error(zip_source_error(source), operation: operation, entry: nil)
    }

    /// Runs a libzip call that reports failure through an error structure it is handed, and
    /// throws that error when the call returns nil.
    static func withError<T>(operation: String, entry: String? = nil,
                             _ body: (UnsafeMutablePointer<zip_error_t>) -> T?) throws(ZipError) -> T {
        var failure = zip_error_t()
        zip_error_init(&failure)
        defer { zip_error_fini(&failure) }
        guard let value = body(&failure) else { throw error(&failure, operation: operation, entry: entry) }
        return value
    }
}
