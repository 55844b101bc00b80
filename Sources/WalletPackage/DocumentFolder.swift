import Foundation

/// Lists a document's source folder (a pass template, an order) the way Wallet wants it packaged:
/// junk (`.DS_Store`, `__MACOSX`, dotfiles, symlinks) left out, only root files and `<lang>.lproj/`
/// folders kept, everything skipped reported so a stray file never disappears silently.
public struct DocumentFolder: Sendable {
    /// One file to package.
    public struct Entry: Sendable {
        /// Path inside the archive.
        public let path: String
        /// Where the file is.
        public let url: URL
    }

    /// The files to package, root files and each `.lproj` folder's in name order.
    public private(set) var entries: [Entry] = []
    /// What was left out and why, for the user to notice.
    public private(set) var skipped: [String] = []

    /// Lists `directory`.
    public init(directory: URL) throws(WalletPackageError) {
        let keys: [URLResourceKey] = [.isSymbolicLinkKey, .isDirectoryKey, .isRegularFileKey]
        let manager = FileManager.default
        let top: [URL]
        do {
            top = try manager.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)
        } catch {
            throw .folderNotFound(path: directory.path)
        }
        for url in top.sorted(by: { $0.lastPathComponent < $1.lastPathComponent }) {
            let name = url.lastPathComponent
            guard !Self.isJunk(name) else { continue }
            let values = try? url.resourceValues(forKeys: Set(keys))
            if values?.isSymbolicLink == true {
                skipped.append("\(name) (a symbolic link; links are never packaged)")
            } else if values?.isDirectory == true {
                guard Self.isLocalizationFolder(name) else {
                    skipped.append("\(name)/ (only <language>.lproj folders are packaged)")
                    continue
                }
                try addLocalization(url, name: name, keys: keys)
            } else if values?.isRegularFile == true {
                entries.append(Entry(path: name, url: url))
            }
        }
    }

    private mutating func addLocalization(_ folder: URL, name: String, keys: [URLResourceKey]) throws(WalletPackageError) {
        let contents: [URL]
        do {
            contents = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: keys)
        } catch {
            throw .unreadableFolder(name: name, message: error.localizedDescription)
        }
        for url in contents.sorted(by: { $0.lastPathComponent < $1.lastPathComponent }) {
            let fileName = url.lastPathComponent
            guard !Self.isJunk(fileName) else { continue }
            let values = try? url.resourceValues(forKeys: Set(keys))
            if values?.isSymbolicLink == true || values?.isRegularFile != true {
                skipped.append("\(name)/\(fileName) (only files are packaged inside .lproj folders)")
            } else {
                entries.append(Entry(path: "\(name)/\(fileName)", url: url))
            }
        }
    }

    /// Files no pass or order should carry: Finder and Windows metadata, dotfiles, archive litter.
    public static func isJunk(_ name: String) -> Bool {
        name.hasPrefix(".") || name == "__MACOSX" || name == "Thumbs.db" || name == "desktop.ini" || name.hasSuffix("~")
    }

    /// `en.lproj`, `zh-Hans.lproj`, `pt-BR.lproj`.
    public static func isLocalizationFolder(_ name: String) -> Bool {
        guard name.hasSuffix(".lproj") else { return false }
        let language = name.dropLast(6)
        return !language.isEmpty && language.count <= 16
            && language.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}
