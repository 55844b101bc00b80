import PasswrightTesting
import Storage
import Testing
@testable import WalletStore

/// "List the serial numbers updated since" (web service endpoint 2) runs for every device on every
/// push, so its cost must follow the device's registrations, not the number of passes of the type
/// (issue #14: 35 times slower with 20,000 passes and 100,000 registrations). Its plan must start from
/// the device's registrations and look each pass up by its primary key; asserted on the engine's plan,
/// not on a time.
@Suite struct UpdatedSerialsPlanTests {
    static let passes = 20_000
    static let devices = 10_000
    /// Registrations per device; the `(i * 7919) % passes` spread gives each device distinct passes.
    static let perDevice = 10

    @Test(arguments: StoreEngine.selected)
    func listingStartsFromTheDevicesRegistrations(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            try await Self.seed(store.database)
            let device = "device-42"
            let query = WalletStore.updatedSerialsQuery(deviceLibraryIdentifier: device, passTypeIdentifier: Fixture.passType, updatedSince: nil)
            let plan = try await store.database.queryPlan(of: query)
            switch plan.engine {
            case .sqlite:
                // Planned without ANALYZE statistics, as a production SQLite store is.
                let loops = plan.lines.filter { $0.hasPrefix("SEARCH ") || $0.hasPrefix("SCAN ") }
                #expect(loops.count == 2, "\(plan)")
                #expect(loops.first?.hasPrefix("SEARCH registrations ") == true, "the outer loop is the device's registrations:\n\(plan)")
                #expect(loops.first?.contains("device_library_identifier=? AND pass_type_identifier=?") == true, "\(plan)")
                #expect(loops.last?.hasPrefix("SEARCH passes ") == true, "\(plan)")
                #expect(loops.last?.contains("pass_type_identifier=? AND serial_number=?") == true, "one primary-key lookup per pass:\n\(plan)")
            case .postgres:
                // With statistics, as autovacuum keeps them; without them the small test tables could
                // make a sequential scan legitimately cheapest.
                _ = try await store.database.execute(SQL("ANALYZE registrations"))
                _ = try await store.database.execute(SQL("ANALYZE passes"))
                let analyzed = try await store.database.queryPlan(of: query)
                #expect(!analyzed.lines.contains { $0.contains("Seq Scan") }, "\(analyzed)")
                let registrations = analyzed.lines.firstIndex { $0.contains("registrations_pkey") }
                let passes = analyzed.lines.firstIndex { $0.contains(" on passes") }
                #expect(registrations != nil && passes != nil && registrations! < passes!, "the outer side is the device's registrations:\n\(analyzed)")
                #expect(analyzed.lines.filter { $0.contains(" on passes") }.allSatisfy { $0.contains("Index Scan using passes_pkey on passes") }, "\(analyzed)")
                #expect(analyzed.lines.contains { $0.contains("serial_number = registrations.serial_number") }, "one primary-key lookup per pass:\n\(analyzed)")
            }

            // And the answer is the same: the device's serials in order, the largest tag as lastUpdated.
            let indices = (42 * Self.perDevice..<43 * Self.perDevice).map { ($0 * 7919) % Self.passes }
            let expected = indices.map { "S\(100_000 + $0)" }.sorted()
            let all = try #require(try await store.serialNumbers(deviceLibraryIdentifier: device, passTypeIdentifier: Fixture.passType, updatedSince: nil))
            #expect(all == UpdatedSerials(serialNumbers: expected, lastUpdated: Int64(indices.max()! + 1)))
            let middle = Int64(indices.sorted()[Self.perDevice / 2] + 1)
            let newer = try #require(try await store.serialNumbers(deviceLibraryIdentifier: device, passTypeIdentifier: Fixture.passType, updatedSince: middle))
            #expect(newer.serialNumbers == indices.filter { Int64($0 + 1) > middle }.map { "S\(100_000 + $0)" }.sorted())
        }
    }

    /// Passes `S100000…` of one type with update tags 1…, devices `device-0…`, and `perDevice`
    /// registrations for each device, written by the engine itself (a row at a time would take minutes).
    static func seed(_ database: any Database) async throws {
        try await database.execute(SQL(
            """
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
            INSERT INTO passes (pass_type_identifier, serial_number, template, data, authentication_token, update_tag, created_at, updated_at)
            SELECT ?, 'S' || (100000 + i), 'event', '{}', 'token', i + 1, 0, 0 FROM n
            """,
            .integer(Int64(passes)), .text(Fixture.passType)
        ))
        try await database.execute(SQL(
            """
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
            INSERT INTO devices (device_library_identifier, push_token, updated_at)
            SELECT 'device-' || i, 'token', 0 FROM n
            """,
            .integer(Int64(devices))
        ))
        try await database.execute(SQL(
            """
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
            INSERT INTO registrations (device_library_identifier, pass_type_identifier, serial_number, created_at)
            SELECT 'device-' || (i / ?), ?, 'S' || (100000 + (i * 7919) % ?), 0 FROM n
            """,
            .integer(Int64(devices * perDevice)), .integer(Int64(perDevice)), .text(Fixture.passType), .integer(Int64(passes))
        ))
    }
}

/// What the push worker signs ahead is read once per 128 pushes of a wave: its cost must follow the
/// jobs' registrations, never the tables (a scan per slice would cost a 10,000-pass wave 117 passes
/// through registrations). Asserted on the engine's plan, not on a time.
@Suite struct PassesToRefreshPlanTests {
    @Test(arguments: StoreEngine.selected)
    func eachJobIsARegistrationsSearchAndEachPassAPrimaryKeyLookup(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            try await UpdatedSerialsPlanTests.seed(store.database)
            try await store.database.execute(SQL(
                """
                INSERT INTO push_outbox (device_library_identifier, pass_type_identifier, push_token, enqueued_at, next_attempt_at)
                SELECT device_library_identifier, ?, push_token, 0, 0 FROM devices
                WHERE CAST(SUBSTR(device_library_identifier, 8) AS INTEGER) < 64
                """,
                .text(Fixture.passType)))
            let jobs = try await store.claimPushes(instance: "plan", limit: 64, lease: .seconds(60))
            #expect(jobs.count == 64)
            if store.database.engine == .postgres {
                _ = try await store.database.execute(SQL("ANALYZE registrations"))
                _ = try await store.database.execute(SQL("ANALYZE passes"))
            }
            let plan = try await store.database.queryPlan(of: WalletStore.passesToRefreshQuery(jobs[...]))
            switch plan.engine {
            case .sqlite:
                #expect(!plan.lines.contains { $0.hasPrefix("SCAN registrations") || $0.hasPrefix("SCAN passes") }, "\(plan)")
                #expect(plan.lines.contains { $0.hasPrefix("SEARCH registrations") && $0.contains("device_library_identifier=? AND pass_type_identifier=?") }, "\(plan)")
                #expect(plan.lines.contains { $0.hasPrefix("SEARCH passes") && $0.contains("pass_type_identifier=? AND serial_number=?") }, "\(plan)")
            case .postgres:
                #expect(!plan.lines.contains { $0.contains("Seq Scan on registrations") || $0.contains("Seq Scan on passes") }, "\(plan)")
                #expect(plan.lines.contains { $0.contains("registrations_pkey") } && plan.lines.contains { $0.contains("passes_pkey") }, "\(plan)")
            }
            // Every pass the 64 devices hold (all changed at 0, as their pushes were queued), once.
            let expected = Set((0..<64 * UpdatedSerialsPlanTests.perDevice).map { "S\(100_000 + ($0 * 7919) % UpdatedSerialsPlanTests.passes)" })
            let refreshed = try await store.passesToRefresh(after: jobs)
            #expect(Set(refreshed.map(\.key.serialNumber)) == expected && refreshed.count == expected.count)
        }
    }
}
