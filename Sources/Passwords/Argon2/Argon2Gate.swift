internal import CArgon2

/// The one place libargon2's return codes become `PasswordError`s, in libargon2's own words.
enum Argon2Gate {
    /// Throws unless `code` is `ARGON2_OK`. Hashing fails only on parameters libargon2 refuses (memory
    /// under 8 KiB per lane, no iteration) or on memory it cannot allocate.
    static func check(_ code: Int32) throws(PasswordError) {
        guard code != ARGON2_OK.rawValue else { return }
        throw .hashingFailed(reason: String(cString: argon2_error_message(code)))
    }
}
