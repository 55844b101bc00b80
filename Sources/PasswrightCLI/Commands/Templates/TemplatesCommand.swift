/// `passwright templates`: upload template folders to a running server and read back its templates
/// and their versions, through the admin API.
struct TemplatesCommand: Subcommand {
    static let spec = CommandSpec(
        name: "templates",
        abstract: "Upload template folders to a running server (push, sync) and read them back (list, versions).",
        discussion: """
        SUBCOMMANDS:
          push DIR          Upload one template folder as a new version (rolled out to the template's passes).
          sync DIR          Upload every subfolder of DIR that has a pass.json.
          list              The server's templates, their current version and status.
          versions NAME     One template's versions, its passes and how many are behind.
        See 'passwright templates <subcommand> --help'. The admin token comes from PASSWRIGHT_ADMIN_TOKEN
        (never from a flag, so it stays out of shell history).
        """,
        arguments: [CommandSpec.Argument(name: "SUBCOMMAND", help: "push, sync, list or versions.")])

    static let subcommands: [any Subcommand.Type] = [
        TemplatesPushCommand.self, TemplatesSyncCommand.self, TemplatesListCommand.self, TemplatesVersionsCommand.self,
    ]

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        throw UsageError("unknown subcommand '\(arguments.positional(0) ?? "")'; use push, sync, list or versions")
    }

    func run(console: Console) async throws -> ExitStatus { .usage }
}
