import Foundation
import PassCompiler
import PassModel

/// `passwright build`: one template + one record → one signed `.pkpass`, or one order folder → one
/// signed `.order`.
struct BuildCommand: Subcommand {
    static let spec = CommandSpec(
        name: "build",
        abstract: "Build one signed .pkpass from a template and a JSON record, or one .order from an order folder.",
        discussion: """
        The record fills the template's {{placeholders}}. Its serialNumber (or a new UUID) names the pass;
        its authenticationToken (or a fresh random one) is used when the pass has a web service.
        A folder with order.json and no pass.json is an order's source: it takes no --data, is signed with
        the Order Type ID identity <DIR>/<orderTypeIdentifier>/ and written to --out (default:
        <orderIdentifier>.order); every problem of the order is listed at once.
        Nothing is written unless the pass or order is valid and signed.
        """,
        arguments: [CommandSpec.Argument(name: "SOURCE", help: "Template folder (pass.json, images, <lang>.lproj/), or order folder (order.json, images).")],
        options: [
            .value("data", "FILE", help: "The record: a JSON object file, or - for standard input (templates only)."),
            .value("out", "FILE", help: "Output .pkpass or .order path, or - for standard output (default: <serialNumber>.pkpass, <orderIdentifier>.order)."),
            IdentityOptions.option,
            .value("web-service-url", "URL", help: "Web service base URL written into the pass (default: $PASSWRIGHT_WEB_SERVICE_URL or the template's; templates only)."),
        ])

    /// What is built, with only the inputs that kind takes: an order has no record and carries its
    /// own web service URL in order.json.
    enum Job: Sendable {
        case pass(data: String, webServiceURL: String?)
        case order
    }

    let source: String
    let job: Job
    let out: String?
    let identities: IdentityOptions

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        source = arguments.positional(0)!
        switch BuildSource.of(URL(fileURLWithPath: source)) {
        case .orderFolder:
            for option in ["data", "web-service-url"] where arguments.value(option) != nil {
                throw UsageError("--\(option) is for pass templates; \(source) is an order folder, whose order.json is the whole order")
            }
            job = .order
        case .passTemplate:
            guard let data = arguments.value("data") else { throw UsageError("missing --data FILE (a JSON record, or - for standard input)") }
            job = .pass(data: data, webServiceURL: arguments.value("web-service-url") ?? environment["PASSWRIGHT_WEB_SERVICE_URL"])
        }
        out = arguments.value("out")
        identities = IdentityOptions(arguments: arguments, environment: environment)
    }

    func run(console: Console) async throws -> ExitStatus {
        switch job {
        case .order:
            return try OrderBuild(folder: source, out: out, identities: identities).run(console: console)
        case .pass(let data, let webServiceURL):
            return try buildPass(data: data, webServiceURL: webServiceURL, console: console)
        }
    }

    private func buildPass(data: String, webServiceURL: String?, console: Console) throws -> ExitStatus {
        let loaded = try Template.load(from: URL(fileURLWithPath: source))
        let compiler = try identities.compiler(for: loaded, options: CompileOptions(webServiceURL: webServiceURL), console: console)
        let recordName = data == "-" ? "standard input" : data
        let record = try Self.readRecord(data, name: recordName)
        let compiled = try compiler.compile(PassInput(record: record, recordName: recordName))
        for warning in compiled.warnings { console.err("warning: \(warning)") }
        try ArchiveOutput.write(compiled.archive, to: out, defaultPath: "\(compiled.serialNumber).pkpass",
                                summary: "\(loaded.passTypeIdentifier), serial \(compiled.serialNumber)", console: console)
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
