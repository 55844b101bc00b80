import Foundation
import WalletCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A running server's admin API (`/api/v1`) as the CLI reaches it (`passwright push`, `passwright
/// templates`): the base URL from `--server`, then `$PASSWRIGHT_SERVER`, then the local default; the
/// bearer token from `PASSWRIGHT_API_KEY` (an API key) or else `PASSWRIGHT_ADMIN_TOKEN`, never a flag,
/// so it stays out of shell history.
struct AdminAPI: Sendable {
    /// The `--server URL` option every admin command takes.
    static let serverOption = CommandSpec.Option.value(
        "server", "URL", help: "The server's base URL (default: $PASSWRIGHT_SERVER or http://127.0.0.1:8080).")

    /// The environment variable holding the admin token.
    static let tokenVariable = "PASSWRIGHT_ADMIN_TOKEN"
    /// The environment variable holding an API key, which is used before the admin token.
    static let keyVariable = "PASSWRIGHT_API_KEY"
    /// How the server's audit trail tells the command line's writes from other API clients' (source `cli`).
    static let userAgent = "passwright-cli/\(Passwright.version)"

    /// A server's answer: status and body.
    struct Answer: Sendable {
        let status: Int
        let body: Data

        /// Whether the status is 2xx.
        var isSuccess: Bool { (200..<300).contains(status) }

        /// The body as text (for `--json` and error messages).
        var text: String { String(decoding: body, as: UTF8.self) }

        /// The body decoded as the wire value the server encodes it from; an answer of another
        /// shape is an `AdminAPIError`.
        func decode<T: WireValue>(_ type: T.Type, from server: String) throws(AdminAPIError) -> T {
            do {
                return try WireJSON.decoder().decode(type, from: body)
            } catch {
                throw .unreadableAnswer(server: server, status: status, detail: "\(error)")
            }
        }

        /// The RFC 9457 problem in a refusal, when the body is one.
        var problem: Problem? { try? JSONDecoder().decode(Problem.self, from: body) }
    }

    /// The server's base URL without a trailing `/`.
    let server: String
    private let token: String?

    /// Reads `--server` and the token; a `--server` that is not an http(s) URL is a usage error. A
    /// missing token is reported by the first request, after the rest of the command line was checked.
    init(arguments: ParsedArguments, environment: [String: String]) throws(UsageError) {
        let text = arguments.value("server") ?? environment["PASSWRIGHT_SERVER"] ?? "http://127.0.0.1:8080"
        server = text.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        guard let url = URL(string: server), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw UsageError("--server takes an http:// or https:// URL, not '\(text)'")
        }
        token = [Self.keyVariable, Self.tokenVariable].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
    }

    /// Sends one request to `path` (under the base URL) with the bearer token.
    func send(_ method: String, _ path: String, body: Data? = nil, contentType: String? = nil) async throws(AdminAPIError) -> Answer {
        guard let token else { throw .missingToken }
        guard let url = URL(string: server + path) else { throw .unreachable(server: server, detail: "'\(server + path)' is not a URL") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue(Self.userAgent, forHTTPHeaderField: "User-Agent")
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        request.httpBody = body
        do {
            let (data, response) = try await URLSession.shared.data(for: request)
            return Answer(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
        } catch {
            throw .unreachable(server: server, detail: error.localizedDescription)
        }
    }

    /// POSTs the file at `file` to `path`, read as it is sent (a file of any size costs no memory).
    func upload(_ path: String, file: URL, contentType: String, headers: [String: String] = [:]) async throws(AdminAPIError) -> Answer {
        guard let token else { throw .missingToken }
        guard let url = URL(string: server + path) else { throw .unreachable(server: server, detail: "'\(server + path)' is not a URL") }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue(Self.userAgent, forHTTPHeaderField: "User-Agent")
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        // An upload may take long to read into the job on the server: wait for its answer.
        request.timeoutInterval = 3600
        do {
            let (data, response) = try await URLSession.shared.upload(for: request, fromFile: file)
            return Answer(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
        } catch {
            throw .unreachable(server: server, detail: error.localizedDescription)
        }
    }

    /// Like ``send(_:_:body:contentType:)``, but a status other than 2xx is an error naming it.
    func expectSuccess(_ method: String, _ path: String) async throws(AdminAPIError) -> Answer {
        let answer = try await send(method, path)
        guard answer.isSuccess else { throw .refused(server: server, status: answer.status, detail: answer.problem?.summary ?? answer.text) }
        return answer
    }

    /// The options of a command that reads from the admin API: `--json` and `--server`.
    static let readOptions: [CommandSpec.Option] = [.flag("json", help: "Print the server's JSON answer as it is."), serverOption]

    /// GETs `path`: with `raw` (`--json`) prints the answer as it is and returns `nil`, else decodes it.
    func read<T: WireValue>(_ path: String, as type: T.Type, raw: Bool, console: Console) async throws(AdminAPIError) -> T? {
        let answer = try await expectSuccess("GET", path)
        guard !raw else {
            console.out(answer.text)
            return nil
        }
        return try answer.decode(type, from: server)
    }

    /// The server and the id a per-resource subcommand (`webhooks rotate ID`, `keys revoke ID`) takes
    /// as its first argument; a missing id is a usage error asking for `what`.
    static func resource(_ arguments: ParsedArguments, _ environment: [String: String], what: String) throws -> (AdminAPI, String) {
        guard let id = arguments.positional(0), !id.isEmpty else { throw UsageError("give \(what)") }
        return (try AdminAPI(arguments: arguments, environment: environment), id)
    }
}

/// An RFC 9457 problem body, as the server answers a refusal; `errors` lists a template's lint errors.
struct Problem: Decodable, Sendable {
    let title: String?
    let detail: String?
    let errors: [TemplateFinding]?

    /// `title: detail`, or whichever is there.
    var summary: String { [title, detail].compactMap { $0 }.joined(separator: ": ") }
}

/// Why an admin request failed: exit status 1 (the command line was fine).
enum AdminAPIError: Error, CustomStringConvertible {
    /// `PASSWRIGHT_ADMIN_TOKEN` is not set.
    case missingToken
    /// No answer (connection refused, DNS, TLS).
    case unreachable(server: String, detail: String)
    /// The server answered with a status other than 2xx.
    case refused(server: String, status: Int, detail: String)
    /// The server answered 2xx with a body of another shape (another program on that port?).
    case unreadableAnswer(server: String, status: Int, detail: String)

    var description: String {
        switch self {
        case .missingToken:
            "set \(AdminAPI.keyVariable) to an API key (passwright keys create) or \(AdminAPI.tokenVariable) to the server's admin token (serve prints where it keeps a generated one)"
        case .unreachable(let server, let detail): "cannot reach \(server): \(detail)"
        case .refused(let server, let status, let detail): "\(server) answered \(status): \(detail)"
        case .unreadableAnswer(let server, let status, let detail): "\(server) answered \(status) with a body that is not what the admin API sends: \(detail)"
        }
    }
}
