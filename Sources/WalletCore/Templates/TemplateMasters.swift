import Foundation
import ImageProcessing
import PassCompiler
import PassModel

/// Master images in an uploaded or imported template: `logo.master.svg` (or `.png`, `.jpg`, `.webp`)
/// becomes `logo.png`, `logo@2x.png` and `logo@3x.png` at the sizes Wallet draws the slot for the
/// template's style, so a designer hands over one picture per slot instead of three exports. The
/// master itself is not stored: the made images are, so the version's digest is what passes carry.
enum TemplateMasters {
    static let extensions: Set<String> = ["png", "jpg", "jpeg", "webp", "svg"]

    /// Why a master could not be used, naming the file.
    struct Refusal: Error, CustomStringConvertible {
        let file: String
        let reason: String
        var description: String { "\(file): \(reason)" }
    }

    /// `files` with every master replaced by its three images, and what was done (for the warnings).
    static func expand(_ files: [TemplateSourceFile]) throws(Refusal) -> (files: [TemplateSourceFile], notes: [String]) {
        let masters = files.filter { masterSlot(of: $0.path) != nil }
        guard !masters.isEmpty else { return (files, []) }
        let (style, poster) = styleOf(files.first { $0.path == "pass.json" })
        var byPath = Dictionary(files.map { ($0.path, $0) }) { first, _ in first }
        var notes: [String] = []
        for master in masters {
            guard let (folder, slot) = masterSlot(of: master.path) else { continue }
            byPath[master.path] = nil
            let set: PassImageSet
            do {
                set = try PassImageSet.make(from: try MasterImage(data: master.bytes, source: master.path), slot: slot, style: style, poster: poster)
            } catch {
                throw Refusal(file: master.path, reason: "\(error)")
            }
            for image in set.images {
                let path = folder + image.fileName
                if byPath[path] != nil { notes.append("\(path) was replaced by the one made from \(master.path)") }
                byPath[path] = TemplateSourceFile(path: path, bytes: image.png)
            }
            notes.append("\(master.path) made \(set.images.map { folder + $0.fileName }.joined(separator: ", "))")
            notes += set.warnings
        }
        return (byPath.values.sorted { $0.path < $1.path }, notes)
    }

    /// `("", "logo")` for `logo.master.svg`, `("de.lproj/", "logo")` for `de.lproj/logo.master.png`.
    static func masterSlot(of path: String) -> (folder: String, slot: String)? {
        let name = String(path.split(separator: "/").last ?? "")
        let parts = name.split(separator: ".")
        guard parts.count == 3, parts[1] == "master", extensions.contains(parts[2].lowercased()) else { return nil }
        return (String(path.dropLast(name.count)), String(parts[0]))
    }

    /// The style `pass.json` declares, and whether it prefers the poster layout.
    private static func styleOf(_ passJSON: TemplateSourceFile?) -> (PassStyle?, Bool) {
        guard let passJSON, case .object(let object)? = try? JSONValue.parse(passJSON.bytes) else { return (nil, false) }
        let style = PassStyle.allCases.first { object[$0.key] != nil }
        var poster = false
        if case .array(let schemes)? = object["preferredStyleSchemes"] { poster = schemes.contains(.string("posterEventTicket")) }
        return (style, poster)
    }
}
