import Logging
import Foundation
import HTTPServer
import PasswrightTesting
import Testing

/// The server's lifecycle task: request tasks end before `shutdown()` returns, and draining waits for
/// a signal rather than a fixed time.
@Suite struct ServerLifecycleTests {
    /// Answers after `delay` whatever happens, ignoring cancellation (like a blocking database call).
    struct Stubborn: HTTPResponder {
        let delay: Double
        let started: Counter
        let finished: Counter

        func plan(for head: HTTPRequest) -> HTTPRequestPlan {
            HTTPRequestPlan { _ in
                started.increment()
                await withCheckedContinuation { continuation in
                    DispatchQueue.global().asyncAfter(deadline: .now() + delay) { continuation.resume() }
                }
                finished.increment()
                return .empty(status: .ok)
            }
        }
    }

    private static let quiet = Logger(label: "test", level: .error)

    @Test func shutdownReturnsOnlyOnceEveryRequestTaskHasEnded() async throws {
        let started = Counter()
        let finished = Counter()
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(port: 0, threadCount: 2, shutdownGracePeriod: .milliseconds(50)),
            responder: Stubborn(delay: 0.4, started: started, finished: finished),
            logger: Self.quiet
        )
        try server.start()
        let client = RawHTTPClient(port: try #require(server.port))
        let inFlight = Task { try await client.request("GET", "/") }
        while started.count == 0 { try await Task.sleep(for: .milliseconds(5)) }
        await server.shutdown()
        #expect(finished.count == 1)
        #expect(try await inFlight.value.status == 503)  // answered at the end of the grace period
    }

    @Test func drainingAnIdleServerDoesNotWaitForTheGracePeriod() async throws {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(port: 0, threadCount: 2, shutdownGracePeriod: .seconds(30)),
            responder: Stubborn(delay: 0, started: Counter(), finished: Counter()),
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
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threadCount: 2), responder: Stubborn(delay: 0, started: Counter(), finished: Counter()), logger: Self.quiet)
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
            let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threadCount: 2), responder: Stubborn(delay: 0, started: Counter(), finished: Counter()), logger: Self.quiet)
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
