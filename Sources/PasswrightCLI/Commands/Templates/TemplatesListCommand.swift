/// `passwright templates list`: a server's templates.
struct TemplatesListCommand: Subcommand {
    static let spec = CommandSpec(
        name: "list",
        abstract: "List a running server's templates: current version, status and pass type.",
        options: [.flag("json", help: "Print the server's JSON answer as it is."), AdminAPI.serverOption])

    let api: AdminAPI
    let json: Bool

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        api = try AdminAPI(arguments: arguments, environment: environment)
        json = arguments.flag("json")
    }

    func run(console: Console) async throws -> ExitStatus {
        let answer = try await api.expectSuccess("GET", "/api/v1/templates")
        if json {
            console.out(answer.text)
            return .success
        }
        var table = TextTable("NAME", "VERSION", "STATUS", "PASS TYPE")
        for entry in try answer.decode(TemplateList.self, from: api.server).templates {
            table.add(entry.name, entry.version.map(String.init) ?? "-", entry.status, entry.passTypeIdentifier ?? entry.reason ?? "")
        }
        console.out(table.rendered)
        return .success
    }
}
