import PasswrightLogging
import Foundation
import HTTPServer
import PasswrightTesting
import Synchronization
import Testing

/// Opens only when `count` parties have arrived; a party that waits past the deadline gives up.
actor Barrier {
    private let count: Int
    private var arrived = 0

    init(count: Int) { self.count = count }

    /// Returns whether everyone arrived before the deadline.
    func arriveAndWait(timeout: Duration) async -> Bool {
        arrived += 1
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while arrived < count, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return arrived >= count
    }
}

/// Suspend/resume: handlers are `async` and never hold a daemon thread.
@Suite struct ServerConcurrencyTests {
    @Test func manyConcurrentSleepingHandlersAllAnswerCorrectly() async throws {
        var router = Router()
        router.get("/sleep/:id") { request, context in
            try await Task.sleep(for: .milliseconds(50))
            return .bytes(Data("id=\(context.parameters["id"]!)".utf8), contentType: "text/plain")
        }
        let configuration = HTTPServerConfiguration(port: 0, threadCount: 2, connectionLimit: 400)
        let bodies = try await withServer(router, configuration: configuration) { client in
            try await withThrowingTaskGroup(of: (Int, RawResponse).self) { group in
                for id in 0..<200 {
                    group.addTask { (id, try await client.request("GET", "/sleep/\(id)")) }
                }
                var bodies: [Int: String] = [:]
                for try await (id, response) in group where response.status == 200 { bodies[id] = response.text }
                return bodies
            }
        }
        #expect(bodies.count == 200)
        #expect(bodies.allSatisfy { id, body in body == "id=\(id)" })
    }

    /// With 2 daemon threads, 50 handlers can only all be waiting at once if none of them holds a
    /// daemon thread while it waits: a blocking bridge would let at most 2 arrive, the barrier would time out, and the
    /// handlers would answer 503 (the test fails instead of hanging).
    @Test func handlersDoNotBlockDaemonThreads() async throws {
        let parties = 50
        let barrier = Barrier(count: parties)
        var router = Router()
        router.get("/barrier") { _, _ in
            await barrier.arriveAndWait(timeout: .seconds(10))
                ? .bytes(Data("opened".utf8), contentType: "text/plain")
                : .problem(status: .serviceUnavailable, detail: "barrier timed out")
        }
        let configuration = HTTPServerConfiguration(port: 0, threadCount: 2)
        let statuses = try await withServer(router, configuration: configuration) { client in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<parties {
                    group.addTask { try await client.request("GET", "/barrier").status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
        }
        #expect(statuses.count == parties)
        #expect(statuses.allSatisfy { $0 == 200 })
    }

    @Test func shutdownDrainsInFlightRequestThenRefusesConnections() async throws {
        let started = Counter()
        var router = Router()
        router.get("/slow") { _, _ in
            started.increment()
            try await Task.sleep(for: .milliseconds(300))
            return .bytes(Data("finished".utf8), contentType: "text/plain")
        }
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(port: 0, threadCount: 2),
            responder: router,
            logger: Logger(label: "test", level: .error)
        )
        try server.start()
        let port = try #require(server.port)
        let client = RawHTTPClient(port: port)
        let running = Task { try await server.run() }

        let inFlight = Task { try await client.request("GET", "/slow") }
        try await waitUntil { started.count > 0 }
        running.cancel()
        try await running.value

        let response = try await inFlight.value
        #expect(response.status == 200)
        #expect(response.text == "finished")
        #expect(response.header("connection")?.lowercased() == "close")
        #expect(server.port == nil)

        #expect {
            try client.connect()
        } throws: { error in
            guard case RawClientError.connect(_, let code) = error else { return false }
            return code == ECONNREFUSED
        }
    }

    @Test func shutdownAfterGracePeriodAnswers503() async throws {
        let started = Counter()
        var router = Router()
        router.get("/forever") { _, _ in
            started.increment()
            try await Task.sleep(for: .seconds(60))
            return .empty()
        }
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(port: 0, threadCount: 2, shutdownGracePeriod: .milliseconds(100)),
            responder: router,
            logger: Logger(label: "test", level: .error)
        )
        try server.start()
        let client = RawHTTPClient(port: try #require(server.port))
        let inFlight = Task { try await client.request("GET", "/forever") }
        try await waitUntil { started.count > 0 }
        await server.shutdown()
        let response = try await inFlight.value
        #expect(response.status == 503)
    }

    private func waitUntil(_ condition: @Sendable () -> Bool) async throws {
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        while !condition() {
            try #require(ContinuousClock.now < deadline, "condition not met within 10 s")
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
