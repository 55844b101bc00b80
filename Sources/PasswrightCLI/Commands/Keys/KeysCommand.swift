import Foundation
import WalletCore
import WalletHTTP

/// `passwright keys`: a running server's API keys, through the admin API (`keys:manage`).
struct KeysCommand: Subcommand {
    static let spec = CommandSpec(
        name: "keys",
        abstract: "Create, list, rotate and revoke a running server's API keys (each with scopes, and optionally templates and an expiry).",
        discussion: """
        SUBCOMMANDS:
          create NAME --scopes S,S [--templates N,N] [--expires TIME]   Prints the key (pw_…), shown this once.
          list                                                         Every key: id, name, state, scopes, last use.
          rotate ID                                                    A new secret, printed once; the old one stops working.
          revoke ID                                                    Revoke the key for good.
        Scopes: \(APIScope.allCases.map(\.rawValue).joined(separator: ", ")).
        The caller's key (or the admin token) comes from PASSWRIGHT_API_KEY or PASSWRIGHT_ADMIN_TOKEN and needs keys:manage.
        """,
        arguments: [CommandSpec.Argument(name: "SUBCOMMAND", help: "create, list, rotate or revoke.")])

    static let subcommands: [any Subcommand.Type] = [KeysCreateCommand.self, KeysListCommand.self, KeysRotateCommand.self, KeysRevokeCommand.self]

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        throw UsageError("unknown subcommand '\(arguments.positional(0) ?? "")'; use create, list, rotate or revoke")
    }

    func run(console: Console) async throws -> ExitStatus { .usage }

    static let idArgument = CommandSpec.Argument(name: "ID", help: "The key's id, as 'keys list' shows it.")

    /// Prints a key and its secret, with the warning that the secret is not shown again.
    static func show(_ created: APIKeyCreated, console: Console) {
        console.out("id      \(created.key.id)")
        console.out("scopes  \(created.key.scopes.joined(separator: ","))")
        console.out("key     \(created.secret)")
        console.err("Keep the key now: it is not shown again (only its hash is stored).")
    }
}

/// `passwright keys create NAME`.
struct KeysCreateCommand: Subcommand {
    static let spec = CommandSpec(
        name: "create", abstract: "Create a key; prints it (pw_…) this once.",
        arguments: [CommandSpec.Argument(name: "NAME", help: "Who or what uses it, e.g. crm-prod.")],
        options: [
            .value("scopes", "S,S", help: "What it may do (required), e.g. passes:read,passes:issue."),
            .value("templates", "N,N", help: "Only these templates' passes (default: all)."),
            .value("expires", "TIME", help: "When it stops working, ISO 8601 (default: never)."),
            AdminAPI.serverOption,
        ])

    let api: AdminAPI
    let request: APIKeyRequest

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        guard let name = arguments.positional(0) else { throw UsageError("give the key's name") }
        guard let scopes = arguments.value("scopes") else { throw UsageError("give --scopes, e.g. --scopes passes:read,passes:issue") }
        var expires: Date?
        if let text = arguments.value("expires") {
            guard let date = try? Date(text, strategy: .iso8601) else { throw UsageError("--expires takes an ISO 8601 time such as 2027-06-30T00:00:00Z, not '\(text)'") }
            expires = date
        }
        api = try AdminAPI(arguments: arguments, environment: environment)
        request = APIKeyRequest(
            name: name, scopes: scopes.split(separator: ",").map(String.init),
            templates: arguments.value("templates").map { $0.split(separator: ",").map(String.init) }, expiresAt: expires)
    }

    func run(console: Console) async throws -> ExitStatus {
        let answer = try await WebhooksCommand.send(api, "POST", "/api/v1/keys", body: request)
        KeysCommand.show(try answer.decode(APIKeyCreated.self, from: api.server), console: console)
        return .success
    }
}

/// `passwright keys list`.
struct KeysListCommand: Subcommand {
    static let spec = CommandSpec(name: "list", abstract: "List the keys: id, name, state, scopes, templates, last use.", options: AdminAPI.readOptions)

    let api: AdminAPI
    let json: Bool

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        api = try AdminAPI(arguments: arguments, environment: environment)
        json = arguments.flag("json")
    }

    func run(console: Console) async throws -> ExitStatus {
        guard let list = try await api.read("/api/v1/keys", as: APIKeyList.self, raw: json, console: console) else { return .success }
        var table = TextTable("ID", "NAME", "STATE", "SCOPES", "TEMPLATES", "LAST USED")
        for key in list.keys {
            table.add(key.id, key.name, key.state, key.scopes.joined(separator: ","), key.templates?.joined(separator: ",") ?? "all",
                      key.lastUsedAt.map { "\($0.formatted(.iso8601)) \(key.lastUsedAddress ?? "")" } ?? "never")
        }
        console.out(table.rendered)
        return .success
    }
}

/// `passwright keys rotate ID`.
struct KeysRotateCommand: Subcommand {
    static let spec = CommandSpec(
        name: "rotate", abstract: "Give a key a new secret (printed once); the old one stops working.", arguments: [KeysCommand.idArgument],
        options: [AdminAPI.serverOption])

    let api: AdminAPI
    let id: String

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        (api, id) = try AdminAPI.resource(arguments, environment, what: "the key's id (see 'passwright keys list')")
    }

    func run(console: Console) async throws -> ExitStatus {
        let answer = try await api.expectSuccess("POST", "/api/v1/keys/\(PathSegment.escaped(id))/rotate")
        KeysCommand.show(try answer.decode(APIKeyCreated.self, from: api.server), console: console)
        return .success
    }
}

/// `passwright keys revoke ID`.
struct KeysRevokeCommand: Subcommand {
    static let spec = CommandSpec(
        name: "revoke", abstract: "Revoke a key for good.", arguments: [KeysCommand.idArgument], options: [AdminAPI.serverOption])

    let api: AdminAPI
    let id: String

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        (api, id) = try AdminAPI.resource(arguments, environment, what: "the key's id (see 'passwright keys list')")
    }

    func run(console: Console) async throws -> ExitStatus {
        _ = try await api.expectSuccess("DELETE", "/api/v1/keys/\(PathSegment.escaped(id))")
        console.err("Revoked \(id).")
        return .success
    }
}
