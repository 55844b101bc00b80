import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `passwright healthcheck`: asks a running server whether it is alive, for a container's
/// `HEALTHCHECK` (the runtime image has no shell tricks to rely on: `/bin/sh` is dash there).
struct HealthcheckCommand: Subcommand {
    static let spec = CommandSpec(
        name: "healthcheck",
        abstract: "Exit 0 when a running server answers 200 on /healthz (or --url), 1 otherwise.",
        discussion: "For a container's HEALTHCHECK: HEALTHCHECK CMD [\"passwright\", \"healthcheck\"].",
        options: [
            .value("url", "URL", help: "What to ask (default: http://127.0.0.1:$PASSWRIGHT_PORT/healthz, port 8080 when unset)."),
            .value("timeout", "SECONDS", help: "How long to wait for the answer (default: 3)."),
        ])

    let url: URL
    let timeout: TimeInterval

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        let text = arguments.value("url") ?? "http://127.0.0.1:\(environment["PASSWRIGHT_PORT"] ?? "8080")/healthz"
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            throw UsageError("--url '\(text)' is not an http or https URL")
        }
        self.url = url
        let seconds = arguments.value("timeout") ?? "3"
        guard let timeout = TimeInterval(seconds), timeout > 0 else { throw UsageError("--timeout must be a positive number of seconds, not '\(seconds)'") }
        self.timeout = timeout
    }

    func run(console: Console) async throws -> ExitStatus {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "GET"
        do {
            let (_, response) = try await URLSession.shared.data(for: request)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            guard status == 200 else {
                console.err("Error: \(url) answered \(status)")
                return .failure
            }
            console.out("healthy: \(url) answered 200")
            return .success
        } catch {
            console.err("Error: \(url) did not answer: \(error.localizedDescription)")
            return .failure
        }
    }
}
