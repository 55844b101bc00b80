import APNs
import Foundation
import Testing

@Suite("One long-lived HTTP/2 connection per identity")
struct ConnectionReuseTests {
    /// Sends `count` pushes at once and returns their outcomes.
    private func sendConcurrently(_ client: APNsClient, count: Int) async throws -> [APNsOutcome] {
        try await withThrowingTaskGroup(of: APNsOutcome.self) { group in
            for number in 0..<count {
                group.addTask { try await client.send(pushToken: deviceToken(number), topic: TestPKI.passTypeIdentifier).outcome }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test("200 concurrent pushes travel as streams of one connection")
    func concurrentPushesShareOneConnection() async throws {
        try await withStandIn { harness in
            let client = try harness.client()
            let outcomes = try await sendConcurrently(client, count: 200)

            #expect(outcomes.count == 200)
            #expect(outcomes.allSatisfy { $0 == .delivered })
            let records = try harness.standIn.records()
            #expect(records.count == 200)
            #expect(Set(records.map(\.connection)).count == 1)
            #expect(Set(records.map(\.stream)).count == 200)
            #expect(Set(records.map(\.path)).count == 200)
            #expect(client.connectionsOpened == 1)
        }
    }

    @Test("With two connections, 200 concurrent pushes take turns: each connection carries half")
    func twoConnectionsShareTheFanOut() async throws {
        try await withStandIn { harness in
            let client = try harness.client(connections: 2)
            let outcomes = try await sendConcurrently(client, count: 200)

            #expect(outcomes.count == 200 && outcomes.allSatisfy { $0 == .delivered })
            let records = try harness.standIn.records()
            #expect(records.count == 200)
            let perConnection = Dictionary(grouping: records, by: \.connection).mapValues(\.count)
            #expect(perConnection.values.sorted() == [100, 100], "\(perConnection)")
            #expect(client.connectionsOpened == 2)
        }
    }

    @Test("The server's SETTINGS_MAX_CONCURRENT_STREAMS of 5 is honoured and all 200 pushes complete")
    func serverStreamLimitIsHonoured() async throws {
        try await withStandIn(StandInOptions(maxConcurrentStreams: 5, delayMilliseconds: 20)) { harness in
            let client = try harness.client()
            let outcomes = try await sendConcurrently(client, count: 200)

            #expect(outcomes.count == 200)
            #expect(outcomes.allSatisfy { $0 == .delivered })
            let records = try harness.standIn.records()
            #expect(records.count == 200)
            #expect(Set(records.map(\.connection)).count == 1)
            // Once libcurl has the server's SETTINGS, streams run side by side but never more than 5.
            // (Before that, RFC 9113 lets a client exceed a limit it cannot know yet: at most our own
            // cap of 100 streams can go out in that first burst, so at least the other 100 come after.)
            let afterSettings = records.filter(\.limitAcknowledged)
            #expect(afterSettings.count >= 100)
            let mostInFlight = afterSettings.map(\.openStreams).max() ?? 0
            #expect(mostInFlight > 1 && mostInFlight <= 5)
            #expect(client.connectionsOpened == 1)
        }
    }

    @Test("Our own stream cap bounds the streams in flight below the server's")
    func clientStreamCapIsHonoured() async throws {
        try await withStandIn(StandInOptions(delayMilliseconds: 20)) { harness in
            let client = try harness.client(maxConcurrentStreams: 3)
            let outcomes = try await sendConcurrently(client, count: 30)

            #expect(outcomes.allSatisfy { $0 == .delivered })
            let records = try harness.standIn.records()
            #expect(Set(records.map(\.connection)).count == 1)
            let mostInFlight = records.map(\.openStreams).max() ?? 0
            #expect(mostInFlight > 1 && mostInFlight <= 3)
        }
    }

    @Test("After 503 Shutdown and GOAWAY the next push reconnects and succeeds")
    func reconnectsAfterGoAway() async throws {
        let draining = deviceToken(503)
        try await withStandIn(StandInOptions(rules: [draining: StandInRule(reason: "Shutdown")])) { harness in
            let client = try harness.client()
            #expect(try await client.send(pushToken: deviceToken(1), topic: TestPKI.passTypeIdentifier).outcome == .delivered)
            #expect(try await client.send(pushToken: draining, topic: TestPKI.passTypeIdentifier).outcome == .retry(after: .reconnect))
            let outcomes = try await sendConcurrently(client, count: 10)

            #expect(outcomes.allSatisfy { $0 == .delivered })
            let records = try harness.standIn.records()
            #expect(records.count == 12)
            #expect(records.prefix(2).allSatisfy { $0.connection == records[0].connection })
            #expect(records.dropFirst(2).allSatisfy { $0.connection != records[0].connection })
            #expect(Set(records.map(\.connection)).count == 2)
            #expect(client.connectionsOpened == 2)
        }
    }

    @Test("After the server restarts, the next push reconnects and succeeds")
    func reconnectsAfterServerRestart() async throws {
        try await withStandIn { harness in
            let client = try harness.client()
            #expect(try await client.send(pushToken: deviceToken(1), topic: TestPKI.passTypeIdentifier).outcome == .delivered)
            try harness.standIn.restart()
            #expect(try await client.send(pushToken: deviceToken(2), topic: TestPKI.passTypeIdentifier).outcome == .delivered)

            let records = try harness.standIn.records()
            #expect(records.map(\.path) == ["/3/device/\(deviceToken(1))", "/3/device/\(deviceToken(2))"])
            #expect(client.connectionsOpened == 2)
        }
    }
}
