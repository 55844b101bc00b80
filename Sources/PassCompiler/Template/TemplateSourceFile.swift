import Foundation
import Signing
import WalletPackage

/// One file of a template, by its path inside the template (`pass.json`, `logo@2x.png`,
/// `de.lproj/pass.strings`): how a template travels when it is not a folder on disk — uploaded as an
/// archive, stored as a version, downloaded again.
public struct TemplateSourceFile: Sendable, Hashable {
    /// The path inside the template, `/`-separated.
    public let path: String
    /// The file's bytes.
    public let bytes: Data

    /// Creates a file.
    public init(path: String, bytes: Data) {
        self.path = path
        self.bytes = bytes
    }

    /// The files a template keeps, sorted by path, and what was left out with the reason — the
    /// rules a folder on disk follows: junk (`.DS_Store`, `__MACOSX/`, dotfiles) and anything that is
    /// neither a root file nor a file of a `<language>.lproj/` folder is left out, never silently.
    public static func sorted(_ files: [TemplateSourceFile]) -> (kept: [TemplateSourceFile], skipped: [String]) {
        var kept: [TemplateSourceFile] = []
        var skipped: [String] = []
        for file in files.sorted(by: { $0.path < $1.path }) {
            let parts = file.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            if parts.contains(where: DocumentFolder.isJunk) {
                skipped.append("\(file.path) (system or editor litter, never packaged)")
            } else if parts.count == 1 {
                kept.append(file)
            } else if parts.count == 2, DocumentFolder.isLocalizationFolder(parts[0]) {
                kept.append(file)
            } else {
                skipped.append("\(file.path) (only root files and <language>.lproj/ folders are packaged)")
            }
        }
        return (kept, skipped)
    }

    /// The files of a template folder on disk, with what was left out (junk, links, stray folders).
    public static func read(folder directory: URL) throws(PassCompilerError) -> (kept: [TemplateSourceFile], skipped: [String]) {
        let folder: DocumentFolder
        do {
            folder = try DocumentFolder(directory: directory)
        } catch {
            switch error {
            case .unreadableFolder(let name, let message): throw .templateFile(file: name, message: "cannot list folder: \(message)")
            default: throw .templateNotFound(path: directory.path)
            }
        }
        var files: [TemplateSourceFile] = []
        for entry in folder.entries {
            do {
                files.append(TemplateSourceFile(path: entry.path, bytes: try Data(contentsOf: entry.url)))
            } catch {
                throw .templateFile(file: entry.path, message: "cannot be read: \(error.localizedDescription)")
            }
        }
        return (files.sorted { $0.path < $1.path }, folder.skipped)
    }

    /// The content digest of a template: SHA-256 over the sorted paths and bytes, so the same files
    /// give the same digest wherever they come from (a folder, an archive, the store).
    public static func digest(of files: [TemplateSourceFile]) -> String {
        var material = Data()
        for file in files.sorted(by: { $0.path < $1.path }) {
            material.append(contentsOf: Array(file.path.utf8))
            material.append(0)
            var length = UInt64(file.bytes.count).bigEndian
            withUnsafeBytes(of: &length) { material.append(contentsOf: $0) }
            material.append(file.bytes)
        }
        return Digest.sha256Hex(material)
    }
}
