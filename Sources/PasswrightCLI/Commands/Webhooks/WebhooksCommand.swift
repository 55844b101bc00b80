import Foundation
import WalletCore
import WalletHTTP

/// `passwright webhooks`: manage a running server's webhook endpoints through the admin API.
struct WebhooksCommand: Subcommand {
    static let spec = CommandSpec(
        name: "webhooks",
        abstract: "Subscribe endpoints to a running server's events (signed Standard Webhooks), list, rotate, replay and remove them.",
        discussion: """
        SUBCOMMANDS:
          add URL [--types T,T] [--templates N,N] [--description TEXT]   Subscribe; prints the secret, shown this once.
          list                                                          The endpoints, enabled or not and why.
          deliveries ID                                                 An endpoint's newest deliveries.
          rotate ID [--overlap SECONDS]                                 A new secret; the old one signs beside it meanwhile.
          replay ID (--since TIME | --event evt_N)                      Deliver events again.
          enable ID                                                     Resume deliveries to a disabled endpoint.
          remove ID                                                     Remove an endpoint and its deliveries.
        The admin token comes from PASSWRIGHT_ADMIN_TOKEN.
        """,
        arguments: [CommandSpec.Argument(name: "SUBCOMMAND", help: "add, list, deliveries, rotate, replay, enable or remove.")])

    static let subcommands: [any Subcommand.Type] = [
        WebhooksAddCommand.self, WebhooksListCommand.self, WebhooksDeliveriesCommand.self, WebhooksRotateCommand.self,
        WebhooksReplayCommand.self, WebhooksEnableCommand.self, WebhooksRemoveCommand.self,
    ]

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        throw UsageError("unknown subcommand '\(arguments.positional(0) ?? "")'; use add, list, deliveries, rotate, replay, enable or remove")
    }

    func run(console: Console) async throws -> ExitStatus { .usage }

    /// The endpoint ID argument every per-endpoint subcommand takes.
    static let idArgument = CommandSpec.Argument(name: "ID", help: "The endpoint's id (whep_…), as 'webhooks list' shows it.")

    /// The server and endpoint a per-endpoint subcommand works on, and its API path.
    struct Target: Sendable {
        let api: AdminAPI
        let id: String
        var path: String { "/api/v1/webhooks/\(PathSegment.escaped(id))" }

        init(_ arguments: ParsedArguments, _ environment: [String: String]) throws {
            (api, id) = try AdminAPI.resource(arguments, environment, what: "the endpoint's id (see 'passwright webhooks list')")
        }
    }

    /// Sends a JSON body and prints the answer's summary, or fails naming the server's refusal.
    static func send(_ api: AdminAPI, _ method: String, _ path: String, body: some Encodable) async throws -> AdminAPI.Answer {
        let data = try WireJSON.encoder().encode(body)
        let answer = try await api.send(method, path, body: data, contentType: "application/json")
        guard answer.isSuccess else {
            throw AdminAPIError.refused(server: api.server, status: answer.status, detail: answer.problem?.summary ?? answer.text)
        }
        return answer
    }
}

/// `passwright webhooks add URL`.
struct WebhooksAddCommand: Subcommand {
    static let spec = CommandSpec(
        name: "add", abstract: "Subscribe an endpoint; prints its id and its signing secret (shown this once).",
        arguments: [CommandSpec.Argument(name: "URL", help: "Where to deliver: https (plain http only to loopback).")],
        options: [
            .value("types", "T,T", help: "Event types to deliver (default: all), e.g. pass.issued,pass.voided."),
            .value("templates", "N,N", help: "Only events of these templates (default: all)."),
            .value("description", "TEXT", help: "A note for the console and the list."),
            AdminAPI.serverOption,
        ])

    let api: AdminAPI
    let request: WebhookRequest

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        guard let url = arguments.positional(0) else { throw UsageError("give the URL to deliver to") }
        api = try AdminAPI(arguments: arguments, environment: environment)
        request = WebhookRequest(
            url: url, description: arguments.value("description") ?? "",
            types: arguments.value("types").map { $0.split(separator: ",").map(String.init) },
            templates: arguments.value("templates").map { $0.split(separator: ",").map(String.init) })
    }

    func run(console: Console) async throws -> ExitStatus {
        let answer = try await WebhooksCommand.send(api, "POST", "/api/v1/webhooks", body: request)
        let created = try answer.decode(WebhookCreated.self, from: api.server)
        console.out("id      \(created.webhook.id)")
        console.out("url     \(created.webhook.url)")
        console.out("types   \(created.webhook.types.joined(separator: ","))")
        console.out("secret  \(created.secret)")
        console.err("Keep the secret now: it is not shown again (rotate it with 'passwright webhooks rotate \(created.webhook.id)').")
        return .success
    }
}

/// `passwright webhooks list`.
struct WebhooksListCommand: Subcommand {
    static let spec = CommandSpec(name: "list", abstract: "List the endpoints: id, state, types and URL.", options: AdminAPI.readOptions)

    let api: AdminAPI
    let json: Bool

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        api = try AdminAPI(arguments: arguments, environment: environment)
        json = arguments.flag("json")
    }

    func run(console: Console) async throws -> ExitStatus {
        guard let list = try await api.read("/api/v1/webhooks", as: WebhookList.self, raw: json, console: console) else { return .success }
        var table = TextTable("ID", "STATE", "TYPES", "URL")
        for endpoint in list.webhooks {
            table.add(endpoint.id, endpoint.enabled ? "enabled" : "disabled: \(endpoint.disabledReason ?? "")",
                      endpoint.types.joined(separator: ","), endpoint.url)
        }
        console.out(table.rendered)
        return .success
    }
}

/// `passwright webhooks deliveries ID`.
struct WebhooksDeliveriesCommand: Subcommand {
    static let spec = CommandSpec(
        name: "deliveries", abstract: "An endpoint's newest deliveries: event, state, attempts, last status and latency.",
        arguments: [WebhooksCommand.idArgument], options: AdminAPI.readOptions)

    let target: WebhooksCommand.Target
    let json: Bool

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        target = try WebhooksCommand.Target(arguments, environment)
        json = arguments.flag("json")
    }

    func run(console: Console) async throws -> ExitStatus {
        guard let list = try await target.api.read(target.path + "/deliveries", as: WebhookDeliveryList.self, raw: json, console: console) else {
            return .success
        }
        var table = TextTable("EVENT", "TYPE", "STATE", "ATTEMPTS", "LAST", "MS")
        for delivery in list.deliveries {
            table.add(delivery.event, delivery.type ?? "", delivery.state, String(delivery.attempts),
                      delivery.lastStatus.map(String.init) ?? delivery.lastError ?? "", delivery.latencyMilliseconds.map(String.init) ?? "")
        }
        console.out(table.rendered)
        return .success
    }
}

/// `passwright webhooks rotate ID`.
struct WebhooksRotateCommand: Subcommand {
    static let spec = CommandSpec(
        name: "rotate", abstract: "Make a new signing secret (printed once); the old one keeps signing for --overlap seconds.",
        arguments: [WebhooksCommand.idArgument],
        options: [.value("overlap", "SECONDS", help: "How long the old secret still signs (default: 86400, at most 604800)."), AdminAPI.serverOption])

    let target: WebhooksCommand.Target
    let overlap: Int

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        target = try WebhooksCommand.Target(arguments, environment)
        let text = arguments.value("overlap") ?? "86400"
        guard let overlap = Int(text), (0...604_800).contains(overlap) else { throw UsageError("--overlap takes 0 to 604800 seconds, not '\(text)'") }
        self.overlap = overlap
    }

    func run(console: Console) async throws -> ExitStatus {
        let answer = try await WebhooksCommand.send(target.api, "POST", target.path + "/rotate-secret", body: WebhookRotation(overlapSeconds: overlap))
        let secret = try answer.decode(WebhookSecret.self, from: target.api.server)
        console.out("secret  \(secret.secret)")
        console.out("old secret signs until \(secret.previousValidUntil.formatted(.iso8601))")
        return .success
    }
}

/// `passwright webhooks replay ID`.
struct WebhooksReplayCommand: Subcommand {
    static let spec = CommandSpec(
        name: "replay", abstract: "Deliver an endpoint's events again: every one since a time, or one event.",
        arguments: [WebhooksCommand.idArgument],
        options: [
            .value("since", "TIME", help: "ISO 8601, e.g. 2026-12-01T00:00:00Z."), .value("event", "ID", help: "One event, evt_…."),
            AdminAPI.serverOption,
        ])

    let target: WebhooksCommand.Target
    let replay: WebhookReplay

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        target = try WebhooksCommand.Target(arguments, environment)
        var since: Date?
        if let text = arguments.value("since") {
            guard let date = try? Date(text, strategy: .iso8601) else { throw UsageError("--since takes an ISO 8601 time such as 2026-12-01T00:00:00Z, not '\(text)'") }
            since = date
        }
        guard since != nil || arguments.value("event") != nil else { throw UsageError("give --since TIME or --event evt_…") }
        replay = WebhookReplay(since: since, event: arguments.value("event"))
    }

    func run(console: Console) async throws -> ExitStatus {
        let answer = try await WebhooksCommand.send(target.api, "POST", target.path + "/replay", body: replay)
        console.out("queued \(try answer.decode(WebhookReplayResult.self, from: target.api.server).queued) deliveries")
        return .success
    }
}

/// `passwright webhooks enable ID`.
struct WebhooksEnableCommand: Subcommand {
    static let spec = CommandSpec(
        name: "enable", abstract: "Resume deliveries to an endpoint that was disabled (its pending deliveries go on in order).",
        arguments: [WebhooksCommand.idArgument], options: [AdminAPI.serverOption])

    let target: WebhooksCommand.Target

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        target = try WebhooksCommand.Target(arguments, environment)
    }

    func run(console: Console) async throws -> ExitStatus {
        _ = try await WebhooksCommand.send(target.api, "PATCH", target.path, body: WebhookChange(members: ["enabled": .bool(true)]))
        console.out("enabled \(target.id)")
        return .success
    }
}

/// `passwright webhooks remove ID`.
struct WebhooksRemoveCommand: Subcommand {
    static let spec = CommandSpec(
        name: "remove", abstract: "Remove an endpoint and its deliveries.", arguments: [WebhooksCommand.idArgument], options: [AdminAPI.serverOption])

    let target: WebhooksCommand.Target

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        target = try WebhooksCommand.Target(arguments, environment)
    }

    func run(console: Console) async throws -> ExitStatus {
        let answer = try await target.api.send("DELETE", target.path)
        guard answer.isSuccess else {
            throw AdminAPIError.refused(server: target.api.server, status: answer.status, detail: answer.problem?.summary ?? answer.text)
        }
        console.out("removed \(target.id)")
        return .success
    }
}
