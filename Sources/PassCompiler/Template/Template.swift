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
    /// The folder it was loaded from; `nil` for a template loaded from stored or uploaded files.
    public let directory: URL?
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
    /// How the service treats the template's passes (`passwright.json`, never packaged).
    public let settings: TemplateSettings
    /// `files`, compressed once, for every pass; and the same without personalization files, for
    /// passes without NFC (digest §1.7).
    let packaged: (all: ZipPrecompressedEntries, withoutPersonalization: ZipPrecompressedEntries)

    let root: TemplateNode
    /// The fields `root` spells, where no record decides them (``mayShowChangeMessage(movingFrom:)``).
    let fields: TemplateFields?

    /// Loads the template in `directory`. Every file that cannot be used is reported at once
    /// (``PassCompilerError/several(_:)``). Without an icon Wallet refuses the pass, so a template
    /// without one does not load unless `requiringIcon` is `false` (the linter reports it itself,
    /// next to everything else). Images whose `@2x`/`@3x` are not exactly two or three times their
    /// `@1x` load: Wallet scales them and shows the pass (the linter warns).
    public static func load(from directory: URL, requiringIcon: Bool = true) throws(PassCompilerError) -> Template {
        let folder = try TemplateSourceFile.read(folder: directory)
        guard folder.kept.contains(where: { $0.path == "pass.json" }) else {
            throw .templateNotFound(path: directory.path)
        }
        return try load(
            name: directory.standardizedFileURL.lastPathComponent, files: folder.kept, skipped: folder.skipped, directory: directory,
            requiringIcon: requiringIcon)
    }

    /// Loads a template from its files (a stored version, an uploaded archive), laid out as in a
    /// folder: `pass.json` and images at the root, `<language>.lproj/` folders. `files` must have
    /// been sorted out by ``TemplateSourceFile/sorted(_:)``; `skipped` says what was left out, and why.
    public static func load(
        name: String, files: [TemplateSourceFile], skipped: [String] = [], directory: URL? = nil, requiringIcon: Bool = true
    ) throws(PassCompilerError) -> Template {
        guard let passFile = files.first(where: { $0.path == "pass.json" }) else {
            throw .templateFile(file: "pass.json", message: "is missing: a template is a pass.json with its images")
        }
        let source = try JSONValue.parseTemplateFile(passFile.bytes, file: "pass.json")
        guard case .object(let object) = source else {
            throw .invalidTemplate(file: "pass.json", path: "", message: "must be a JSON object")
        }
        let passTypeIdentifier = try literalString("passTypeIdentifier", in: object)
        let teamIdentifier = try literalString("teamIdentifier", in: object)
        let root = try TemplateNode(source, file: "pass.json")

        var packagedFiles: [PackagedFile] = []
        var localizations: [String: StringsFile] = [:]
        var skipped = skipped
        var images: [String: PNGImage] = [:]
        var settings = TemplateSettings.standard
        var problems: [PassCompilerError] = []
        for entry in files where entry.path != "pass.json" {
            let name = String(entry.path.split(separator: "/").last ?? "")
            var bytes = entry.bytes
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
            } else if entry.path == "passwright.json" {
                settings = try TemplateSettings.parse(bytes)
                continue
            } else if entry.path == "personalization.json" {
                _ = try JSONValue.parseTemplateFile(bytes, file: entry.path)
            } else {
                skipped.append("\(entry.path) (not a pass file: only pass.json, personalization.json, PNG images and pass.strings are packaged)")
                continue
            }
            packagedFiles.append(PackagedFile(path: entry.path, bytes: bytes, sha1Hex: Digest.sha1Hex(bytes)))
        }
        if requiringIcon, let missing = iconProblem(images: images, languages: Array(localizations.keys)) {
            problems.append(missing)
        }
        if !problems.isEmpty { throw .combining(problems) }

        var seen = Set<String>()
        let placeholders = root.placeholders.filter { seen.insert($0).inserted }
        let sorted = packagedFiles.sorted { $0.path < $1.path }
        let packaged: (all: ZipPrecompressedEntries, withoutPersonalization: ZipPrecompressedEntries)
        do {
            packaged = (
                try ZipPrecompressedEntries(sorted.map { ($0.path, $0.bytes, .deflate) }),
                try ZipPrecompressedEntries(sorted.filter { !$0.isPersonalization }.map { ($0.path, $0.bytes, .deflate) }))
        } catch {
            throw .packaging(message: "cannot compress the template's files: \(error)")
        }
        return Template(
            name: name, directory: directory, source: source,
            passTypeIdentifier: passTypeIdentifier, teamIdentifier: teamIdentifier,
            files: sorted, localizations: localizations,
            skippedFiles: skipped, placeholders: placeholders, settings: settings, packaged: packaged, root: root,
            fields: TemplateFields(root))
    }

    /// Whether the template ships an image for `slot` at any scale, at the root or localized.
    public func hasImage(_ slot: String) -> Bool {
        files.contains { $0.imageName?.slot == slot }
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
