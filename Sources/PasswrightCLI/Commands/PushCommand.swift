import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
        options: [.value("server", "URL", help: "The server's base URL (default: $PASSWRIGHT_SERVER or http://127.0.0.1:8080).")])

    let server: String
    let token: String
    let path: String
    let method: String

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        server = (arguments.value("server") ?? environment["PASSWRIGHT_SERVER"] ?? "http://127.0.0.1:8080").trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        guard let token = environment["PASSWRIGHT_ADMIN_TOKEN"], !token.isEmpty else {
            throw ConfigurationError("set PASSWRIGHT_ADMIN_TOKEN to the server's admin token")
        }
        self.token = token
        switch (arguments.positional(0), arguments.positional(1), arguments.positional(2)) {
        case ("stats", nil, nil):
            path = "/api/v1/push/stats"
            method = "GET"
        case ("send", let type?, let serial?):
            let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))
            path = "/api/v1/passes/\(type.addingPercentEncoding(withAllowedCharacters: allowed) ?? type)/\(serial.addingPercentEncoding(withAllowedCharacters: allowed) ?? serial)/push"
            method = "POST"
        default:
            throw UsageError("use 'push stats' or 'push send PASS_TYPE_ID SERIAL'")
        }
    }

    func run(console: Console) async throws -> ExitStatus {
        guard let url = URL(string: server + path) else { throw UsageError("--server '\(server)' is not a URL") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (body, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let text = String(decoding: body, as: UTF8.self)
        guard (200..<300).contains(status) else {
            console.err("Error: \(server) answered \(status): \(text)")
            return .failure
        }
        console.out(text)
        return .success
    }
}
