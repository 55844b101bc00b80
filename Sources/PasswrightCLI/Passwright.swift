import Foundation

/// The `passwright` command line: subcommands in swift-argument-parser's shape — `--help` everywhere,
/// `--version`, errors on standard error as `Error: …`, exit status 0 (success), 1 (failure) and
/// 64 (usage error).
public enum Passwright {
    /// The version printed by `--version`.
    public static let version = "0.1.0"

    static let commands: [any Subcommand.Type] = [
        BuildCommand.self, BatchCommand.self, VerifyCommand.self, LintCommand.self, PreviewCommand.self, CertsCommand.self, ImagesCommand.self, ServeCommand.self,
        PushCommand.self, TemplatesCommand.self, HealthcheckCommand.self, BenchCommand.self, BackupCommand.self, RestoreCommand.self,
        DoctorCommand.self, WebhooksCommand.self, IssueCommand.self, KeysCommand.self, HoldersCommand.self,
    ]

    /// Runs the command line `arguments` (without the program name) and returns the exit status.
    public static func main(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) async -> Int32 {
        let console = Console()
        guard let first = arguments.first else {
            console.err(help)
            return ExitStatus.usage.rawValue
        }
        if first == "--help" || first == "-h" || first == "help" {
            console.out(help)
            return ExitStatus.success.rawValue
        }
        if first == "--version" {
            console.out(version)
            return ExitStatus.success.rawValue
        }
        guard let command = commands.first(where: { $0.spec.name == first }) else {
            console.err("Error: unknown command '\(first)'\n\n\(help)")
            return ExitStatus.usage.rawValue
        }
        var rest = Array(arguments.dropFirst())
        if let name = rest.first, let sub = command.subcommands.first(where: { $0.spec.name == name }) {
            rest.removeFirst()
            return await run(sub, arguments: rest, path: "passwright \(first) \(name)", environment: environment, console: console)
        }
        return await run(command, arguments: rest, path: "passwright \(first)", environment: environment, console: console)
    }

    static func run(_ command: any Subcommand.Type, arguments: [String], path: String, environment: [String: String], console: Console) async -> Int32 {
        do {
            let parsed = try ParsedArguments(arguments, spec: command.spec)
            if parsed.wantsHelp {
                console.out(command.spec.help(commandPath: path))
                return ExitStatus.success.rawValue
            }
            let instance = try command.init(arguments: parsed, environment: environment)
            return try await instance.run(console: console).rawValue
        } catch let error as UsageError {
            console.err("Error: \(error)\n\n\(command.spec.help(commandPath: path))")
            return ExitStatus.usage.rawValue
        } catch {
            console.err("Error: \(error)")
            return ExitStatus.failure.rawValue
        }
    }

    static var help: String {
        var text = """
        OVERVIEW: Passwright — Apple Wallet passes compiled, served and kept up to date.

        USAGE: passwright <command> [options]

        COMMANDS:

        """
        for command in commands {
            let name = command.spec.name
            text += "  \(name)\(String(repeating: " ", count: max(1, 12 - name.count)))\(command.spec.abstract)\n"
        }
        text += "\n  See 'passwright <command> --help' for a command's options; 'passwright --version' for the version."
        return text
    }
}

/// What the process exits with; scripts can tell a bad command line from a failed job.
enum ExitStatus: Int32 {
    case success = 0
    case failure = 1
    case warnings = 2
    case usage = 64
}

/// One `passwright` subcommand.
protocol Subcommand: Sendable {
    /// Name, abstract, arguments and options.
    static var spec: CommandSpec { get }
    /// Checks the parsed arguments; throws `UsageError` for combinations that make no sense.
    init(arguments: ParsedArguments, environment: [String: String]) throws
    /// Does the work.
    func run(console: Console) async throws -> ExitStatus
    /// Nested commands (`certs dev`); empty for most.
    static var subcommands: [any Subcommand.Type] { get }
}

extension Subcommand {
    static var subcommands: [any Subcommand.Type] { [] }
}
