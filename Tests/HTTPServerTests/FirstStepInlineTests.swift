import Foundation
import HTTPServer
import PasswrightLogging
import PasswrightTesting
import Testing

/// A responder runs on the libmicrohttpd thread that received its request until it first waits, and
/// on the Swift pool after that, unless its route starts it in the pool (the threads tell by name:
/// libmicrohttpd names its own `MHD-worker`).
@Suite struct FirstStepInlineTests {
    /// The calling thread's name, as the kernel keeps it.
    private static func threadName() -> String {
        let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "unknown"
        return name.trimmingCharacters(in: .newlines)
    }

    @Test func aResponderRunsOnTheDaemonThreadUntilItWaits() async throws {
        var router = Router()
        router.get("/now") { _, _ in
            .bytes(Data(Self.threadName().utf8), contentType: "text/plain")
        }
        router.get("/later") { _, _ in
            let before = Self.threadName()
            try await Task.sleep(for: .milliseconds(20))
            return .bytes(Data("\(before) then \(Self.threadName())".utf8), contentType: "text/plain")
        }
        router.add(Route(.get, "/computing", start: .inPool) { _, _ in
            .bytes(Data(Self.threadName().utf8), contentType: "text/plain")
        })
        // A group keeps every property of its routes, `start` included: the admin API's template
        // upload, lint and previews are grouped `.inPool` routes.
        var group = RouteGroup("/group")
        group.add(Route(.get, "/computing", start: .inPool) { _, _ in
            .bytes(Data(Self.threadName().utf8), contentType: "text/plain")
        })
        router.add(group)
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threadCount: 2), responder: router,
                                logger: Logger(label: "test", level: .error))
        try server.start()
        let client = RawHTTPClient(port: try #require(server.port))
        let now = try await client.request("GET", "/now")
        #expect(now.status == 200)
        #expect(now.text == "MHD-worker", "a responder that never waits is answered from the daemon thread")
        let later = try await client.request("GET", "/later")
        #expect(later.status == 200)
        let names = later.text.components(separatedBy: " then ")
        #expect(names.first == "MHD-worker")
        #expect(names.count == 2 && names[1] != "MHD-worker", "after waiting it goes on in the Swift pool, not a daemon thread")
        let computing = try await client.request("GET", "/computing")
        #expect(computing.status == 200)
        #expect(!computing.text.isEmpty && computing.text != "MHD-worker", "a route that computes for long starts in the pool")
        let grouped = try await client.request("GET", "/group/computing")
        #expect(grouped.status == 200)
        #expect(!grouped.text.isEmpty && grouped.text != "MHD-worker", "a grouped route that computes for long starts in the pool too")
        await server.shutdown()
    }
}
