import Foundation
import PassCompiler

/// The translations a holder with one language sees: the `.lproj` Wallet would pick and its
/// `pass.strings`.
///
/// Wallet looks a displayed string up as a key and shows the translation, or the string itself when
/// the key is missing; the folder is the closest match to the holder's language (`pt-BR`, then
/// `pt`), then `en`. With no match at all it shows `pass.json` as written.
struct PassStrings {
    /// The folder chosen (`de.lproj`), or `nil`.
    let folder: String?
    let table: [String: String]

    init(files: [String: Data], locale: String?) throws(PreviewError) {
        folder = Self.choose(from: Self.folders(in: files), locale: locale)
        guard let folder, let bytes = files["\(folder)/pass.strings"] else {
            table = [:]
            return
        }
        do {
            let strings = try StringsFile(bytes: bytes, file: "\(folder)/pass.strings")
            table = Dictionary(strings.entries.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        } catch {
            throw .unreadable(source: "\(folder)/pass.strings", problems: ["\(error)"])
        }
    }

    /// The translation of `text`, or `text`.
    func callAsFunction(_ text: String) -> String { table[text] ?? text }

    func callAsFunction(_ text: String?) -> String? { text.map { callAsFunction($0) } }

    /// The `.lproj` folders among an archive's paths.
    static func folders(in files: [String: Data]) -> Set<String> {
        Set(files.keys.compactMap { path -> String? in
            let parts = path.split(separator: "/")
            return parts.count == 2 && parts[0].hasSuffix(".lproj") ? String(parts[0]) : nil
        })
    }

    /// The folder for `locale` (`pt-BR`, then `pt`), else `fallback`'s.
    static func choose(from folders: Set<String>, locale: String?, fallback: String? = "en") -> String? {
        guard let locale, !locale.isEmpty else { return nil }
        let wanted = locale.replacingOccurrences(of: "_", with: "-").lowercased()
        let byName = Dictionary(folders.map { (String($0.dropLast(".lproj".count)).replacingOccurrences(of: "_", with: "-").lowercased(), $0) },
                                uniquingKeysWith: { first, _ in first })
        var candidate = wanted
        while true {
            if let folder = byName[candidate] { return folder }
            guard let dash = candidate.lastIndex(of: "-") else { break }
            candidate = String(candidate[..<dash])
        }
        return fallback.flatMap { byName[$0] }
    }
}
