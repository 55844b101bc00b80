/// Why a password was not hashed, each with what to do about it.
public enum PasswordError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The password is empty (after Unicode normalization).
    case empty
    /// The password is longer than ``PasswordHasher/maximumPasswordBytes`` in UTF-8.
    case tooLong(bytes: Int, limit: Int)
    /// libargon2 refused to hash: parameters it does not accept, or memory it could not allocate.
    case hashingFailed(reason: String)

    public var description: String {
        switch self {
        case .empty:
            "The password is empty: type a password"
        case let .tooLong(bytes, limit):
            "The password is \(bytes) bytes long in UTF-8, over the limit of \(limit): choose a shorter one (a few words make a strong passphrase well within it)"
        case let .hashingFailed(reason):
            "argon2id could not hash the password (libargon2: \(reason)): check the hasher's parameters (at least 8 KiB of memory per lane, 1 iteration) and the memory free on this machine"
        }
    }
}
