import Foundation
import PassCompiler
import PassModel
import ZipArchive

/// A pass as the holder's phone has it: the typed `pass.json` and the other files of the archive
/// (images, `xx.lproj/pass.strings`), by path. What every preview is drawn from.
public struct PassContents: Sendable {
    public let pass: Pass
    /// Archive paths to bytes (`strip@2x.png`, `de.lproj/pass.strings`); no `pass.json`, manifest or signature.
    public let files: [String: Data]

    public init(pass: Pass, files: [String: Data]) {
        self.pass = pass
        self.files = files
    }

    /// Reads a signed `.pkpass` (the signature is not checked: `passwright verify` does that).
    public init(pkpass data: Data, source: String) throws(PreviewError) {
        var files: [String: Data] = [:]
        var passJSON: Data?
        do {
            // The untrusted limits: a preview of an uploaded archive never unpacks a bomb.
            let reader = try ZipReader(data: data, limits: .untrusted)
            for entry in reader.entries where !entry.isSymbolicLink && !entry.isDirectory {
                switch entry.name {
                case "pass.json": passJSON = try reader.data(for: entry.name)
                case "manifest.json", "signature": continue
                default: files[entry.name] = try reader.data(for: entry.name)
                }
            }
        } catch {
            throw .unreadable(source: source, problems: ["not a readable .pkpass archive: \(error)"])
        }
        guard let passJSON else { throw .unreadable(source: source, problems: ["the archive has no pass.json"]) }
        self.init(pass: try Self.decode(passJSON, source: "\(source): pass.json"), files: files)
    }

    /// Renders a template with one record, exactly as `build` would, without signing it.
    public init(template: Template, record: JSONValue, recordName: String) throws(PreviewError) {
        let rendered: JSONValue
        do {
            rendered = try template.render(PassInput(record: record, recordName: recordName), options: CompileOptions())
        } catch {
            throw .unreadable(source: template.name, problems: ["\(error)"])
        }
        let pass: Pass
        do {
            (pass, _) = try Pass.decodeAll(rendered)
        } catch {
            throw .unreadable(source: "\(template.name) with \(recordName)", problems: Self.problems(error))
        }
        var files: [String: Data] = [:]
        for file in template.files where file.path != "pass.json" { files[file.path] = file.bytes }
        self.init(pass: pass, files: files)
    }

    private static func decode(_ data: Data, source: String) throws(PreviewError) -> Pass {
        do {
            return try Pass.decodeAll(try JSONValue.parse(data)).0
        } catch {
            throw .unreadable(source: source, problems: Self.problems(error))
        }
    }

    /// Every decoding problem, each with its JSON path.
    private static func problems(_ error: PassDecodingError) -> [String] {
        (error.severalProblems ?? [error]).map { "\($0.path.isEmpty ? "(top level)" : $0.path): \($0.message)" }
    }
}
