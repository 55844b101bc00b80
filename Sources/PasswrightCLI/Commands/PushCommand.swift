import WalletCore

/// `passwright push`: operate push refresh on a running server through its admin API.
struct PushCommand: Subcommand {
    static let spec = CommandSpec(
        name: "push",
        abstract: "Show push statistics, or force a push for one pass, on a running server.",
        discussion: """
        ACTIONS:
          stats                          queued, in flight, oldest pending, sent, failures by reason, stopped identities
          send PASS_TYPE_ID SERIAL       queue a push to every device registered for the pass
        The admin token comes from PASSWRIGHT_ADMIN_TOKEN (never from a flag, so it stays out of shell history).
        """,
        arguments: [
            CommandSpec.Argument(name: "ACTION", help: "stats or send."),
            CommandSpec.Argument(name: "PASS_TYPE_ID", help: "With send: the pass type identifier.", optional: true),
            CommandSpec.Argument(name: "SERIAL", help: "With send: the serial number.", optional: true),
        ],
        options: [AdminAPI.serverOption])

    let api: AdminAPI
    let path: String
    let method: String
    /// The shape the server answers with, checked before the answer is printed.
    let answer: any WireValue.Type

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        api = try AdminAPI(arguments: arguments, environment: environment)
        switch (arguments.positional(0), arguments.positional(1), arguments.positional(2)) {
        case ("stats", nil, nil):
            path = "/api/v1/push/stats"
            method = "GET"
            answer = PushStats.self
        case ("send", let type?, let serial?):
            path = "/api/v1/passes/\(PathSegment.escaped(type))/\(PathSegment.escaped(serial))/push"
            method = "POST"
            answer = PushQueued.self
        default:
            throw UsageError("use 'push stats' or 'push send PASS_TYPE_ID SERIAL'")
        }
    }

    func run(console: Console) async throws -> ExitStatus {
        let reply = try await api.expectSuccess(method, path)
        // Printed as the server wrote it, once it is known to be the push API's answer (not another program on the port).
        _ = try reply.decode(answer, from: api.server)
        console.out(reply.text)
        return .success
    }
}
