import ZipArchive

/// What can go wrong packaging, reading or listing a signed Wallet document; each case says where.
public enum WalletPackageError: Error, CustomStringConvertible, Sendable {
    /// The CMS signature could not be prepared or made (OpenSSL's message).
    case signing(String)
    /// The zip archive could not be written.
    case archive(ZipError)
    /// The archive reaches the kind's documented size limit.
    case tooLarge(size: Int, limit: Int)
    /// An archive read back is malformed at `entry`.
    case invalidArchive(entry: String, message: String)
    /// A document's source folder is missing or cannot be listed.
    case folderNotFound(path: String)
    /// A folder inside a document's source folder cannot be listed.
    case unreadableFolder(name: String, message: String)

    public var description: String {
        switch self {
        case .signing(let message): return message
        case .archive(let error): return "\(error)"
        case .tooLarge(let size, let limit): return "the archive is \(size) bytes; Wallet needs it below \(limit) bytes"
        case .invalidArchive(let entry, let message): return "\(entry): \(message)"
        case .folderNotFound(let path): return "folder '\(path)' not found"
        case .unreadableFolder(let name, let message): return "\(name): cannot list folder: \(message)"
        }
    }
}
