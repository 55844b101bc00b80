import Foundation
import PassCompiler
import PassModel

/// The files of a pass other than `pass.json`, as the rules need them — from a template folder or
/// from a `.pkpass` — so both are checked by the same code.
struct LintFiles: Sendable {
    /// A PNG with its archive path and parsed name.
    struct Image: Sendable {
        let path: String
        let name: ImageName
        let png: PNGImage
        /// `de` for `de.lproj/logo.png`, `nil` at the root.
        let language: String?
    }

    var images: [Image] = []
    /// Parsed `pass.strings` by language.
    var localizations: [String: StringsFile] = [:]
    /// Whether `personalization.json` ships.
    var hasPersonalization = false
    /// Folder entries left out of the package, with the reason (templates only).
    var skipped: [String] = []

    init(template: Template) {
        for file in template.files {
            if let name = file.imageName, let png = PNGImage(bytes: file.bytes) {
                images.append(Image(path: file.path, name: name, png: png, language: file.language))
            }
        }
        localizations = template.localizations
        hasPersonalization = template.files.contains { $0.path == "personalization.json" }
        skipped = template.skippedFiles
    }

    init() {}

    /// Adds one archive entry; `bytes` unreadable as PNG or strings are left to the verifier's report.
    mutating func add(path: String, data: Data) {
        let parts = path.split(separator: "/").map(String.init)
        let language = parts.count == 2 && parts[0].hasSuffix(".lproj") ? String(parts[0].dropLast(6)) : nil
        if let name = ImageName(fileName: parts.last ?? ""), let png = PNGImage(bytes: data) {
            images.append(Image(path: path, name: name, png: png, language: language))
        } else if parts.last == "pass.strings", let language, let strings = try? StringsFile(bytes: data, file: path) {
            localizations[language] = strings
        } else if path == "personalization.json" {
            hasPersonalization = true
        }
    }

    /// Whether any scale of `slot` ships, at the root or localized.
    func has(_ slot: String) -> Bool {
        images.contains { $0.name.slot == slot }
    }
}
