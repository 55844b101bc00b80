import WalletCore

/// `passwright templates list`: a server's templates.
struct TemplatesListCommand: Subcommand {
    static let spec = CommandSpec(
        name: "list",
        abstract: "List a running server's templates: current version, status and pass type.",
        options: AdminAPI.readOptions)

    let api: AdminAPI
    let json: Bool

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        api = try AdminAPI(arguments: arguments, environment: environment)
        json = arguments.flag("json")
    }

    func run(console: Console) async throws -> ExitStatus {
        guard let list = try await api.read("/api/v1/templates", as: TemplateList.self, raw: json, console: console) else { return .success }
        var table = TextTable("NAME", "VERSION", "STATUS", "PASS TYPE")
        for entry in list.templates {
            table.add(entry.name, entry.version.map(String.init) ?? "-", entry.status.rawValue, entry.passTypeIdentifier ?? entry.reason ?? "")
        }
        console.out(table.rendered)
        return .success
    }
}
