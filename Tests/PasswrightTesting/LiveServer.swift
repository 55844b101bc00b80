import HTTPServer
import PasswrightLogging

/// Runs `body` against a real `HTTPServer` on 127.0.0.1 with an ephemeral port (port 0, so suites
/// running in parallel never collide), and always shuts it down, whatever `body` did.
///
/// The in-process router tests check routing; this checks the same responder over real sockets:
/// libmicrohttpd's parsing, limits and connection handling included.
public func withServer<Result: Sendable>(
    _ responder: some HTTPResponder,
    configuration: HTTPServerConfiguration = HTTPServerConfiguration(port: 0, threadCount: 2),
    logger: Logger = Logger(label: "http.test", level: .error),
    _ body: (RawHTTPClient) async throws -> Result
) async throws -> Result {
    var configuration = configuration
    configuration.port = 0
    let server = HTTPServer(configuration: configuration, responder: responder, logger: logger)
    try server.start()
    return try await withCleanup {
        try await body(RawHTTPClient(port: try server.port.orThrow("the server has no bound port")))
    } cleanup: {
        await server.shutdown()
    }
}
