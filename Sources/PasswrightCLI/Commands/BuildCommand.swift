import Foundation
import PassCompiler
import PassModel

/// `passwright build`: one template + one record → one signed `.pkpass`.
struct BuildCommand: Subcommand {
    static let spec = CommandSpec(
        name: "build",
        abstract: "Build one signed .pkpass from a template and a JSON record.",
        discussion: """
        The record fills the template's {{placeholders}}. Its serialNumber (or a new UUID) names the pass;
        its authenticationToken (or a fresh random one) is used when the pass has a web service.
        Nothing is written unless the pass is valid and signed.
        """,
        arguments: [CommandSpec.Argument(name: "TEMPLATE", help: "Template folder (pass.json, images, <lang>.lproj/).")],
        options: [
            .value("data", "FILE", help: "The record: a JSON object file, or - for standard input."),
            .value("out", "FILE", help: "Output .pkpass path, or - for standard output (default: <serialNumber>.pkpass)."),
            IdentityOptions.option,
            .value("web-service-url", "URL", help: "Web service base URL written into the pass (default: $PASSWRIGHT_WEB_SERVICE_URL or the template's)."),
        ])

    let template: String
    let data: String
    let out: String?
    let identities: IdentityOptions
    let webServiceURL: String?

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        template = arguments.positional(0)!
        guard let data = arguments.value("data") else { throw UsageError("missing --data FILE (a JSON record, or - for standard input)") }
        self.data = data
        out = arguments.value("out")
        identities = IdentityOptions(arguments: arguments, environment: environment)
        webServiceURL = arguments.value("web-service-url") ?? environment["PASSWRIGHT_WEB_SERVICE_URL"]
    }

    func run(console: Console) async throws -> ExitStatus {
        let loaded = try Template.load(from: URL(fileURLWithPath: template))
        let compiler = try identities.compiler(for: loaded, options: CompileOptions(webServiceURL: webServiceURL), console: console)
        let recordName = data == "-" ? "standard input" : data
        let record = try Self.readRecord(data, name: recordName)
        let compiled = try compiler.compile(PassInput(record: record, recordName: recordName))
        for warning in compiled.warnings { console.err("warning: \(warning)") }
        if out == "-" {
            console.outBytes(compiled.archive)
        } else {
            let path = out ?? "\(compiled.serialNumber).pkpass"
            try AtomicFile.write(compiled.archive, to: URL(fileURLWithPath: path))
            console.out("\(path) (\(loaded.passTypeIdentifier), serial \(compiled.serialNumber), \(compiled.archive.count) bytes)")
        }
        return .success
    }

    static func readRecord(_ path: String, name: String) throws -> JSONValue {
        let bytes: Data
        do {
            bytes = path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw PassCompilerError.invalidRecord(record: name, message: "cannot be read: \(error.localizedDescription)")
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            throw PassCompilerError.invalidRecord(record: name, message: "is not valid JSON: \(error)")
        }
        guard case .object = value else {
            throw PassCompilerError.invalidRecord(record: name, message: "must be a JSON object, found \(value)")
        }
        return value
    }
}
