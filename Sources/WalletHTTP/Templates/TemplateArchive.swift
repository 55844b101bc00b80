import Foundation
import HTTPServer
import PassCompiler
import WalletCore
import ZipArchive

/// A template folder as a zip archive: how templates are uploaded and downloaded. Unpacked as hostile
/// input — bounded entry count, sizes and compression ratio, no path that leaves the template, no
/// symbolic link — and laid out as a folder is, with junk dropped and said so.
enum TemplateArchive {
    /// Bounds that fit any real template (a `pass.json`, a few dozen images per language) with room.
    static let limits = ZipLimits(
        maxEntries: 1_000, maxEntrySize: 20 << 20, maxTotalUncompressedSize: 50 << 20, maxCompressionRatio: 100)

    /// The template's files from an archive, and what was left out. An archive whose entries all sit
    /// in one folder (zipping the folder rather than its contents) is read from inside that folder.
    /// `document` is the file the template must hold at its root: `pass.json`, or an order
    /// template's `order.json`.
    static func files(from archive: Data, document: String = "pass.json") throws(HTTPError) -> (files: [TemplateSourceFile], skipped: [String]) {
        let reader: ZipReader
        do {
            reader = try ZipReader(data: archive, limits: limits)
        } catch {
            throw refusal(error)
        }
        if let link = reader.entries.first(where: \.isSymbolicLink) {
            throw HTTPError(.unprocessableContent, "the archive entry \(link.name) is a symbolic link; templates hold plain files only")
        }
        let entries = reader.entries.filter { !$0.isDirectory }
        let prefix = commonFolder(of: entries.map(\.name), document: document)
        var files: [TemplateSourceFile] = []
        for entry in entries {
            let bytes: Data
            do {
                bytes = try reader.data(for: entry.name)
            } catch {
                throw refusal(error)
            }
            files.append(TemplateSourceFile(path: String(entry.name.dropFirst(prefix.count)), bytes: bytes))
        }
        let sorted = TemplateSourceFile.sorted(files)
        guard sorted.kept.contains(where: { $0.path == document }) else {
            throw HTTPError(.unprocessableContent, "the archive has no \(document) at its root (or inside its one top folder)")
        }
        return (sorted.kept, sorted.skipped)
    }


    /// `loyalty/` when every entry is under `loyalty/` and there is no root `document`.
    private static func commonFolder(of names: [String], document: String) -> String {
        guard !names.contains(document), let first = names.first, let slash = first.firstIndex(of: "/") else { return "" }
        let folder = String(first[...slash])
        return names.allSatisfy { $0.hasPrefix(folder) } ? folder : ""
    }

    private static func refusal(_ error: ZipError) -> HTTPError {
        switch error {
        case .tooManyEntries, .entryTooLarge, .archiveTooLarge, .compressionRatioTooHigh:
            HTTPError(.contentTooLarge, "the template archive is refused: \(error)")
        case .libzip, .emptyArchive:
            HTTPError(.badRequest, "the body is not a readable zip archive: \(error)")
        default:
            HTTPError(.unprocessableContent, "the template archive is refused: \(error)")
        }
    }
}
