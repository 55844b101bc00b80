/// `passwright templates versions NAME`: one template's history and roll-out.
struct TemplatesVersionsCommand: Subcommand {
    static let spec = CommandSpec(
        name: "versions",
        abstract: "Show a template's versions on a running server, its passes and how many are behind.",
        discussion: "The current version is marked with '*'. A version that 'restores' another was made by a rollback.",
        arguments: [CommandSpec.Argument(name: "NAME", help: "The template's name.")],
        options: [.flag("json", help: "Print the server's JSON answer as it is."), AdminAPI.serverOption])

    let name: String
    let api: AdminAPI
    let json: Bool

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        name = arguments.positional(0)!
        api = try AdminAPI(arguments: arguments, environment: environment)
        json = arguments.flag("json")
    }

    func run(console: Console) async throws -> ExitStatus {
        let answer = try await api.expectSuccess("GET", "/api/v1/templates/\(AdminAPI.segment(name))")
        if json {
            console.out(answer.text)
            return .success
        }
        let details = try answer.decode(TemplateDetails.self, from: api.server)
        console.out("\(details.name): version \(details.currentVersion) current, \(details.status)"
            + (details.reason.map { " (\($0))" } ?? "") + "; \(details.passes) passes, \(details.passesBehind) behind")
        var table = TextTable("", "VERSION", "UPLOADED AT", "UPLOADED BY", "DIGEST", "RESTORES")
        for version in details.versions.sorted(by: { $0.version > $1.version }) {
            table.add(
                version.version == details.currentVersion ? "*" : "", String(version.version), version.uploadedAt, version.uploadedBy,
                String(version.digest.prefix(12)), version.restores.map(String.init) ?? "")
        }
        console.out(table.rendered)
        return .success
    }
}
