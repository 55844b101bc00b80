import Foundation
import PassModel
import Signing
import ZipArchive

/// A pass template loaded and prepared once — files read, validated and hashed, `pass.json` parsed and
/// its placeholders located — then rendered many times, so a batch of 100,000 passes reads the template
/// folder once.
public struct Template: Sendable {
    /// The folder name, which is how the CLI and the REST API refer to the template.
    public let name: String
    /// Where it was loaded from.
    public let directory: URL
    /// `pass.json` as written, placeholders and all.
    public let source: JSONValue
    /// From `pass.json`; chooses the signing identity, so it may not be a placeholder.
    public let passTypeIdentifier: String
    /// From `pass.json`; must match the signing certificate's OU.
    public let teamIdentifier: String
    /// Every other file packaged into each pass, sorted by path, already hashed.
    public let files: [PackagedFile]
    /// Parsed `pass.strings` by language.
    public let localizations: [String: StringsFile]
    /// Files in the folder that are not packaged, with the reason, for the user to notice.
    public let skippedFiles: [String]
    /// Record paths the placeholders use, in order of first use.
    public let placeholders: [String]
    /// `files`, compressed once, for every pass; and the same without personalization files, for
    /// passes without NFC (Apple: personalization files belong to NFC passes only).
    let packaged: (all: ZipPrecompressedEntries, withoutPersonalization: ZipPrecompressedEntries)

    let root: TemplateNode

    /// Loads the template in `directory`. Every file that cannot be used is reported at once
    /// (``PassCompilerError/several(_:)``). Without an icon Wallet refuses the pass, so a template
    /// without one does not load unless `requiringIcon` is `false` (the linter reports it itself,
    /// next to everything else). Images whose `@2x`/`@3x` are not exactly two or three times their
    /// `@1x` load: Wallet scales them and shows the pass (the linter warns).
    public static func load(from directory: URL, requiringIcon: Bool = true) throws(PassCompilerError) -> Template {
        let folder = try TemplateFolder(directory: directory)
        guard let passEntry = folder.entries.first(where: { $0.path == "pass.json" }) else {
            throw .templateNotFound(path: directory.path)
        }
        let source = try JSONValue.parseTemplateFile(try read(passEntry), file: "pass.json")
        guard case .object(let object) = source else {
            throw .invalidTemplate(file: "pass.json", path: "", message: "must be a JSON object")
        }
        let passTypeIdentifier = try literalString("passTypeIdentifier", in: object)
        let teamIdentifier = try literalString("teamIdentifier", in: object)
        let root = try TemplateNode(source, file: "pass.json")

        var files: [PackagedFile] = []
        var localizations: [String: StringsFile] = [:]
        var skipped = folder.skipped
        var images: [String: PNGImage] = [:]
        var problems: [PassCompilerError] = []
        for entry in folder.entries where entry.path != "pass.json" {
            let name = entry.url.lastPathComponent
            var bytes: Data
            do {
                bytes = try read(entry)
            } catch {
                problems.append(error)
                continue
            }
            if name.hasSuffix(".png") {
                guard let image = PNGImage(bytes: bytes) else {
                    problems.append(.templateFile(file: entry.path, message: "is not a valid PNG image (bad signature or IHDR header)"))
                    continue
                }
                images[entry.path] = image
            } else if name == "pass.strings", let language = entry.path.split(separator: "/").first?.dropLast(6) {
                let strings = try StringsFile(bytes: bytes, file: entry.path)
                localizations[String(language)] = strings
                bytes = strings.encodedUTF16()
            } else if entry.path == "personalization.json" {
                _ = try JSONValue.parseTemplateFile(bytes, file: entry.path)
            } else {
                skipped.append("\(entry.path) (not a pass file: only pass.json, personalization.json, PNG images and pass.strings are packaged)")
                continue
            }
            files.append(PackagedFile(path: entry.path, bytes: bytes, sha1Hex: Digest.sha1Hex(bytes)))
        }
        if requiringIcon, let missing = iconProblem(images: images, languages: Array(localizations.keys)) {
            problems.append(missing)
        }
        if !problems.isEmpty { throw .combining(problems) }

        var seen = Set<String>()
        let placeholders = root.placeholders.filter { seen.insert($0).inserted }
        let sorted = files.sorted { $0.path < $1.path }
        let packaged: (all: ZipPrecompressedEntries, withoutPersonalization: ZipPrecompressedEntries)
        do {
            packaged = (
                try ZipPrecompressedEntries(sorted.map { ($0.path, $0.bytes, $0.compression) }),
                try ZipPrecompressedEntries(sorted.filter { !$0.isPersonalization }.map { ($0.path, $0.bytes, $0.compression) }))
        } catch {
            throw .packaging(message: "cannot compress the template's files: \(error)")
        }
        return Template(
            name: directory.standardizedFileURL.lastPathComponent, directory: directory, source: source,
            passTypeIdentifier: passTypeIdentifier, teamIdentifier: teamIdentifier,
            files: sorted, localizations: localizations,
            skippedFiles: skipped, placeholders: placeholders, packaged: packaged, root: root)
    }

    /// Whether the template ships an image for `slot` at any scale, at the root or localized.
    public func hasImage(_ slot: String) -> Bool {
        files.contains { $0.imageName?.slot == slot }
    }

    private static func read(_ entry: TemplateFolder.Entry) throws(PassCompilerError) -> Data {
        do {
            return try Data(contentsOf: entry.url)
        } catch {
            throw .templateFile(file: entry.path, message: "cannot be read: \(error.localizedDescription)")
        }
    }

    private static func literalString(_ key: String, in object: JSONObject) throws(PassCompilerError) -> String {
        guard case .string(let value)? = object[key], !value.isEmpty else {
            throw .invalidTemplate(file: "pass.json", path: key, message: "is required and must be a string")
        }
        guard !value.contains("{{") else {
            throw .invalidTemplate(file: "pass.json", path: key, message: "cannot be a placeholder: it selects the signing identity, so it is fixed per template")
        }
        return value
    }

    /// Without an icon the pass cannot be added at all (Apple's "Creating the Pass Package": the icon
    /// is required). `nil` when the root, or every localization, has one.
    private static func iconProblem(images: [String: PNGImage], languages: [String]) -> PassCompilerError? {
        func hasIcon(in folder: String) -> Bool {
            images.keys.contains { path in
                let parts = path.split(separator: "/")
                let inFolder = folder.isEmpty ? parts.count == 1 : parts.count == 2 && parts[0] == folder
                return inFolder && ImageName(fileName: String(parts.last!))?.slot == "icon"
            }
        }
        guard hasIcon(in: "") || (!languages.isEmpty && languages.allSatisfy({ hasIcon(in: "\($0).lproj") })) else {
            return .templateFile(file: "icon.png", message: "is missing: every pass needs an icon (icon.png, icon@2x.png, icon@3x.png, 38×38 pt), or Wallet cannot add it")
        }
        return nil
    }
}

extension JSONValue {
    /// Parses a JSON file of a template, naming the file in the error.
    static func parseTemplateFile(_ bytes: Data, file: String) throws(PassCompilerError) -> JSONValue {
        do {
            return try JSONValue.parse(bytes)
        } catch {
            throw .invalidTemplate(file: file, path: "", message: "\(error)")
        }
    }
}
