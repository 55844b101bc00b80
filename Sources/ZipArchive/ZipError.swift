/// Why an archive could not be written or read, naming the entry involved.
///
/// Every case says which entry (when one is involved) and enough for the person holding the
/// archive to act: rename a file, raise a limit, or replace a damaged upload.
public enum ZipError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An entry name that could escape the extraction folder or that Wallet would not read.
    case invalidEntryName(name: String, reason: String)
    /// Two entries with the same name.
    case duplicateEntry(name: String)
    /// No entry of that name in the archive.
    case entryNotFound(name: String)
    /// The archive holds more entries than the limits allow.
    case tooManyEntries(count: Int, limit: Int)
    /// One entry declares or inflates to more bytes than the limits allow.
    case entryTooLarge(name: String, size: UInt64, limit: Int)
    /// All entries together declare more bytes than the limits allow.
    case archiveTooLarge(size: UInt64, limit: Int)
    /// An entry inflates far more than real content does: the mark of a zip bomb.
    case compressionRatioTooHigh(name: String, ratio: UInt64, limit: Int)
    /// An entry's bytes do not match the size its header declares.
    case sizeMismatch(name: String, declared: UInt64, reason: String)
    /// An entry stored with encryption or a method other than store or deflate.
    case unsupportedEntry(name: String, reason: String)
    /// `finish()` was called before any entry was added (libzip writes nothing for an empty archive).
    case emptyArchive
    /// libzip refused an operation; `message` is libzip's own error text.
    case libzip(operation: String, entry: String?, message: String)

    /// A one-line message naming the entry and what to do, for logs and CLI errors.
    public var description: String {
        switch self {
        case let .invalidEntryName(name, reason):
            return "zip entry \(quoted(name)): invalid name, \(reason)"
        case let .duplicateEntry(name):
            return "zip entry \(quoted(name)): the archive already has an entry of that name"
        case let .entryNotFound(name):
            return "zip entry \(quoted(name)): not in the archive"
        case let .tooManyEntries(count, limit):
            return "zip archive has \(count) entries; at most \(limit) are allowed"
        case let .entryTooLarge(name, size, limit):
            return "zip entry \(quoted(name)): \(size) bytes uncompressed; at most \(limit) are allowed per entry"
        case let .archiveTooLarge(size, limit):
            return "zip archive: \(size) bytes uncompressed in all; at most \(limit) are allowed"
        case let .compressionRatioTooHigh(name, ratio, limit):
            return "zip entry \(quoted(name)): compression ratio \(ratio):1 exceeds \(limit):1 (a zip bomb?)"
        case let .sizeMismatch(name, declared, reason):
            return "zip entry \(quoted(name)): declares \(declared) bytes but \(reason); the archive is damaged or forged"
        case let .unsupportedEntry(name, reason):
            return "zip entry \(quoted(name)): \(reason); only unencrypted store and deflate entries are read"
        case .emptyArchive:
            return "zip archive: no entries were added; add at least one file before finishing"
        case let .libzip(operation, entry, message):
            let subject = entry.map { "zip entry \(quoted($0))" } ?? "zip archive"
            return "\(subject): \(operation) failed: \(message)"
        }
    }
}

/// Quotes a name for an error message, showing control characters (a NUL in a hostile name) escaped.
private func quoted(_ name: String) -> String {
    var text = "\""
    for scalar in name.unicodeScalars {
        text += scalar.properties.generalCategory == .control ? scalar.escaped(asASCII: true) : String(scalar)
    }
    return text + "\""
}
