import Foundation
import PasswrightTesting
import Storage
import Testing
import WalletCore
import WalletHTTP

/// The push worker wakes when a push is queued instead of polling: every case runs the worker with
/// a one-hour idle fallback, so a push that arrives at all was claimed because something woke the
/// worker — the store's in-process ring, the earliest retry's due time, or PostgreSQL `NOTIFY`.
@Suite("Push worker wake-up", .serialized)
struct PushWakeTests {
    static let loyalty = PushTypes.loyalty

    /// A PostgreSQL `application_name` that tells one test's connections from every other's.
    static func applicationName() -> String {
        "wake-" + UUID().uuidString.prefix(8).lowercased()
    }

    /// A worker that would sleep an hour if nothing woke it, retrying quickly.
    static func sleepyWorker(listenerRetry: Duration = .seconds(1)) -> PushWorkerConfiguration {
        PushWorkerConfiguration(idleDelay: .seconds(3600), baseBackoff: .milliseconds(200), maximumBackoff: .seconds(1), listenerRetry: listenerRetry)
    }

    @Test("SQLite: a PATCH wakes the idle worker of its own process; the push reaches APNs with the fallback timer at one hour")
    func patchWakesWorkerInProcess() async throws {
        try await withStandIn { standIn in
            try await withService(engine: .sqlite, push: standIn.pushSettings, pushWorker: Self.sleepyWorker()) { server in
                let admin = server.adminClient
                let authToken = "wake-\(UUID().uuidString)"
                _ = try await admin.issue(serial: "WAKE-1", authenticationToken: authToken)
                let device = SimulatedDevice("phone")
                #expect(try await device.register(server.client, passType: Self.loyalty, serial: "WAKE-1", authenticationToken: authToken) == 201)
                // Two updates, each waited for: the worker is idle (asleep for an hour) before each.
                for points in [1, 2] {
                    #expect(try await admin.update(Self.loyalty, "WAKE-1", data: ["points": .number(Double(points))])["pushesQueued"].number == 1)
                    _ = try await standIn.waitForRequests(timeout: .seconds(30)) { $0.count >= points }
                }
                let stats = try await admin.pushesSent(2)
                #expect(stats["queued"].number == 0 && stats["inFlight"].number == 0)
            }
        }
    }

    @Test("a retried push is sent when its backoff ends, not at the one-hour fallback", arguments: Engine.selected)
    func retryWakesAtItsDueTime(engine: Engine) async throws {
        let device = SimulatedDevice("busy")
        try await withStandIn(rules: [device.pushToken: "TooManyRequests"]) { standIn in
            try await withService(engine: engine, push: standIn.pushSettings, pushWorker: Self.sleepyWorker()) { server in
                let admin = server.adminClient
                let authToken = "wake-retry-\(UUID().uuidString)"
                _ = try await admin.issue(serial: "WAKE-RETRY", authenticationToken: authToken)
                #expect(try await device.register(server.client, passType: Self.loyalty, serial: "WAKE-RETRY", authenticationToken: authToken) == 201)
                _ = try await admin.update(Self.loyalty, "WAKE-RETRY", data: ["points": 1])
                // Refused twice: the second attempt came from the worker waking at the retry's due time.
                _ = try await standIn.waitForRequests(timeout: .seconds(30)) { $0.count >= 2 }
                try standIn.setRules([:])
                try await eventually("the retried push is accepted", timeout: .seconds(30)) { try await admin.pushStats()["sent"].number == 1 }
            }
        }
    }

    @Test("PostgreSQL: a PATCH on instance A wakes the worker of instance B (NOTIFY/LISTEN); B pushes it with A pushing nothing",
          .enabled(if: Engine.selected.contains(.postgres)))
    func notifyWakesAnotherInstance() async throws {
        try await Engine.withPostgresSchema { url in
            let database = try DatabaseConfiguration(url: url)
            try await withStandIn { standIn in
                // B alone has APNs senders, so only its worker runs, asleep for an hour unless woken.
                try await withService(on: database, push: standIn.pushSettings, pushWorker: Self.sleepyWorker()) { b in
                    try await withService(on: database) { a in
                        let admin = a.adminClient
                        let authToken = "wake-pg-\(UUID().uuidString)"
                        _ = try await admin.issue(serial: "WAKE-PG", authenticationToken: authToken)
                        let device = SimulatedDevice("phone")
                        #expect(try await device.register(a.client, passType: Self.loyalty, serial: "WAKE-PG", authenticationToken: authToken) == 201)
                        // The first push may come from the listener's ring when it starts; once it has
                        // arrived B is listening, so the second can only come from A's NOTIFY.
                        for points in [1, 2] {
                            #expect(try await admin.update(Self.loyalty, "WAKE-PG", data: ["points": .number(Double(points))])["pushesQueued"].number == 1)
                            _ = try await standIn.waitForRequests(timeout: .seconds(30)) { $0.count >= points }
                        }
                        let stats = try await b.adminClient.pushesSent(2)
                        #expect(stats["queued"].number == 0 && stats["inFlight"].number == 0)
                        #expect(try await admin.pushStats()["sent"].number == 0, "A has no senders and runs no worker")
                    }
                }
            }
        }
    }

    @Test("PostgreSQL: when B's listening connection is killed, B reconnects and hears A's next PATCH",
          .enabled(if: Engine.selected.contains(.postgres)))
    func listenerReconnects() async throws {
        try await Engine.withPostgresSchema { url in
            let database = try DatabaseConfiguration(url: url)
            // B's connections carry a name of their own, so the test finds B's listener among any others.
            let name = Self.applicationName()
            let bDatabase = try DatabaseConfiguration(url: url + "&application_name=\(name)")
            let observer = try await database.open(poolSize: 1)
            let listening = SQL("SELECT pid FROM pg_stat_activity WHERE application_name = ? AND query = 'LISTEN passwright_outbox'", .text(name))
            try await withCleanup {
                try await withStandIn { standIn in
                    try await withService(on: bDatabase, push: standIn.pushSettings, pushWorker: Self.sleepyWorker(listenerRetry: .milliseconds(50))) { b in
                        try await withService(on: database) { a in
                            let admin = a.adminClient
                            let authToken = "wake-reconnect-\(UUID().uuidString)"
                            _ = try await admin.issue(serial: "WAKE-RECONNECT", authenticationToken: authToken)
                            let device = SimulatedDevice("phone")
                            #expect(try await device.register(a.client, passType: Self.loyalty, serial: "WAKE-RECONNECT", authenticationToken: authToken) == 201)
                            _ = try await admin.update(Self.loyalty, "WAKE-RECONNECT", data: ["points": 1])
                            _ = try await standIn.waitForRequests(timeout: .seconds(30)) { $0.count >= 1 }
                            let first = try await observer.query(listening).map { try $0.int64("pid") }
                            #expect(first.count == 1, "B listens on one connection")
                            for pid in first {
                                _ = try await observer.query(SQL("SELECT pg_terminate_backend(CAST(? AS INTEGER)) AS killed", .integer(pid)))
                            }
                            try await eventually("B listens again, on a new connection") {
                                let now = try await observer.query(listening).map { try $0.int64("pid") }
                                return now.count == 1 && Set(now).isDisjoint(with: first)
                            }
                            _ = try await admin.update(Self.loyalty, "WAKE-RECONNECT", data: ["points": 2])
                            _ = try await standIn.waitForRequests(timeout: .seconds(30)) { $0.count >= 2 }
                            // The stand-in records the push before B has settled it.
                            try await eventually("B counts both pushes sent") { try await b.adminClient.pushStats()["sent"].number == 2 }
                        }
                    }
                }
            } cleanup: {
                await observer.close()
            }
        }
    }

    @Test("PostgreSQL: stopping the service ends the listener: run() returns and its connection is gone",
          .enabled(if: Engine.selected.contains(.postgres)), .timeLimit(.minutes(1)))
    func listenerStopsAtShutdown() async throws {
        try await Engine.withPostgresSchema { url in
            let name = Self.applicationName()
            let database = try DatabaseConfiguration(url: url + "&application_name=\(name)")
            let observer = try await DatabaseConfiguration(url: url).open(poolSize: 1)
            try await withCleanup {
                try await withStandIn { standIn in
                    let listeners = {
                        try await observer.query(SQL(
                            "SELECT pid FROM pg_stat_activity WHERE application_name = ? AND query = 'LISTEN passwright_outbox'", .text(name))).count
                    }
                    // withService cancels run() and awaits it: a listener that ignored the cancellation
                    // would hang here (and fail the time limit).
                    try await withService(on: database, push: standIn.pushSettings, pushWorker: Self.sleepyWorker()) { _ in
                        try await eventually("the worker listens") { try await listeners() == 1 }
                    }
                    try await eventually("the listening connection is closed") { try await listeners() == 0 }
                }
            } cleanup: {
                await observer.close()
            }
        }
    }
}
