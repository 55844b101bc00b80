internal import COpenSSL

/// The one place OpenSSL return codes become `SigningError`s, with OpenSSL's error queue attached.
///
/// OpenSSL keeps a per-thread error queue; every operation that may fail starts with `begin()` so a
/// stale entry from an earlier, handled failure never leaks into a later message.
enum OpenSSLGate {
    /// Empties this thread's error queue before an operation.
    static func begin() {
        ERR_clear_error()
    }

    /// Drains this thread's error queue into one line of OpenSSL's own words.
    static func drainErrors() -> String {
        var lines: [String] = []
        var buffer = [CChar](repeating: 0, count: 256)
        while case let code = ERR_get_error(), code != 0 {
            let line = buffer.withUnsafeMutableBufferPointer { pointer -> String in
                ERR_error_string_n(code, pointer.baseAddress, pointer.count)
                return String(cString: pointer.baseAddress!)
            }
            lines.append(line)
        }
        return lines.isEmpty ? "no error reported" : lines.joined(separator: "; ")
    }

    /// Throws `error(queue)` unless OpenSSL returned a positive success code.
    @discardableResult
    static func check(_ result: Int32, _ error: (String) -> SigningError) throws -> Int32 {
        guard result > 0 else { throw error(drainErrors()) }
        return result
    }

    /// Throws `error(queue)` when OpenSSL returned no object.
    static func require<T>(_ value: T?, _ error: (String) -> SigningError) throws -> T {
        guard let value else { throw error(drainErrors()) }
        return value
    }
}
