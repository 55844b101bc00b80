import PasswrightLogging
import Foundation
import HTTPServer
import PasswrightTesting
import Testing

/// The server's lifecycle task: request tasks end before `shutdown()` returns, and draining waits for
/// a signal rather than a fixed time.
@Suite struct ServerLifecycleTests {
    private static let quiet = Logger(label: "test", level: .error)

    /// Answers once `gate` opens whatever happens, ignoring cancellation (like a blocking database
    /// call): the test, not a clock, decides when the handler ends.
    struct Held: HTTPResponder {
        let gate: Gate
        let started: Counter
        let finished: Counter

        func plan(for head: HTTPRequest) -> HTTPRequestPlan {
            HTTPRequestPlan { _ in
                started.increment()
                await gate.wait()
                finished.increment()
                return .empty(status: .ok)
            }
        }

        /// A handler that is never held.
        static func answeringAtOnce() -> Held {
            let gate = Gate()
            gate.open()
            return Held(gate: gate, started: Counter(), finished: Counter())
        }
    }

    @Test func shutdownReturnsOnlyOnceEveryRequestTaskHasEnded() async throws {
        let gate = Gate()
        let started = Counter()
        let finished = Counter()
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(port: 0, threadCount: 2, shutdownGracePeriod: .milliseconds(50)),
            responder: Held(gate: gate, started: started, finished: finished),
            logger: Self.quiet
        )
        try server.start()
        let client = RawHTTPClient(port: try #require(server.port))
        let inFlight = Task { try await client.request("GET", "/") }
        while started.count == 0 { try await Task.sleep(for: .milliseconds(5)) }
        let stopped = Counter()
        let shutdown = Task {
            await server.shutdown()
            stopped.increment()
        }
        // The grace period ends with the handler still held: the client gets its 503, and shutdown
        // keeps waiting for the request task.
        #expect(try await inFlight.value.status == 503)
        #expect(stopped.count == 0)
        gate.open()
        await shutdown.value
        #expect(finished.count == 1)
    }

    @Test func drainingAnIdleServerDoesNotWaitForTheGracePeriod() async throws {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(port: 0, threadCount: 2, shutdownGracePeriod: .seconds(30)),
            responder: Held.answeringAtOnce(),
            logger: Self.quiet
        )
        try server.start()
        let client = RawHTTPClient(port: try #require(server.port))
        #expect(try await client.request("GET", "/").status == 200)
        let clock = ContinuousClock()
        let elapsed = await clock.measure { await server.shutdown() }
        #expect(elapsed < .seconds(5))
        #expect(server.port == nil)
    }

    @Test func concurrentShutdownsAllReturnOnceStopped() async throws {
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threadCount: 2), responder: Held.answeringAtOnce(), logger: Self.quiet)
        try server.start()
        let port = try #require(server.port)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { await server.shutdown() } }
        }
        #expect(throws: RawClientError.self) { try RawHTTPClient(port: port).connect() }
    }

    @Test func aServerDroppedWhileRunningStillStopsAndReleasesItsPort() async throws {
        var port = 0
        do {
            let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threadCount: 2), responder: Held.answeringAtOnce(), logger: Self.quiet)
            try server.start()
            port = try #require(server.port)
        }
        let client = RawHTTPClient(port: port)
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        while (try? client.connect()).map({ close($0) }) != nil {
            try #require(ContinuousClock.now < deadline, "the port was not released within 10 s")
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
