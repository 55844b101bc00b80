import Foundation
import PassModel
import Storage
import Testing
@testable import WalletStore

/// Bulk job records: claims under a lease, a lapsed lease taken over, a settlement by the old holder
/// refused whole, and a record issued exactly once; on SQLite and PostgreSQL.
@Suite struct BulkJobStoreTests {
    static func job(_ store: WalletStore, records: Int) async throws {
        try await store.createBulkJob(id: "job_1", template: "loyalty", format: "jsonl", validation: .each, origin: .api)
        try await store.addBulkRecords(job: "job_1", (1...records).map {
            BulkRecordDraft(line: $0, serialNumber: "S-\($0)", record: #"{"n":\#($0)}"#, errors: nil)
        })
        _ = try await store.openBulkJob("job_1", records: records, unreadable: 0)
    }

    static func issue(_ claims: [BulkClaim]) -> [BulkSettlement] {
        claims.map {
            BulkSettlement($0, .issue(NewPass(
                key: PassKey(passTypeIdentifier: Fixture.passType, serialNumber: $0.serialNumber), template: "loyalty", data: $0.record,
                authenticationToken: String(repeating: "t", count: 32))))
        }
    }

    @Test(arguments: StoreEngine.selected)
    func aLapsedLeaseIsTakenOverAndItsOldHolderWritesNothing(engine: StoreEngine) async throws {
        let clock = TestClock()
        try await engine.withStore(clock: clock) { store in
            try await Self.job(store, records: 5)
            let first = try await store.claimBulkRecords(instance: "a", limit: 3, lease: .seconds(10))
            #expect(first.map(\.line) == [1, 2, 3] && first.allSatisfy(\.issues))
            // Held: another instance gets the rest only.
            let second = try await store.claimBulkRecords(instance: "b", limit: 10, lease: .seconds(10))
            #expect(second.map(\.line) == [4, 5])

            clock.advance(.seconds(11))
            let takenOver = try await store.claimBulkRecords(instance: "c", limit: 10, lease: .seconds(10))
            #expect(takenOver.map(\.line) == [1, 2, 3, 4, 5], "every lease lapsed")
            await #expect(throws: WalletStoreError.self) { try await store.settleBulkRecords(Self.issue(first), instance: "a") }
            #expect(try await store.passes(template: "loyalty").isEmpty, "the old holder's batch wrote nothing")

            let job = try await store.settleBulkRecords(Self.issue(takenOver), instance: "c")
            #expect(job.state == .completed && job.issued == 5 && job.failed == 0 && job.startedAt != nil && job.finishedAt != nil)
            #expect(try await store.passes(template: "loyalty").count == 5)
            #expect(try await store.claimBulkRecords(instance: "a", limit: 10, lease: .seconds(10)).isEmpty, "nothing left to claim")
            let results = try await store.bulkResults(job: "job_1", after: 0, limit: 10)
            #expect(results.map(\.state) == Array(repeating: "issued", count: 5))
            #expect(try await store.bulkIssuedSerials(job: "job_1", ordinals: 4...10) == ["S-4", "S-5"])
            #expect(results.map(\.issuedOrdinal) == [1, 2, 3, 4, 5])
        }
    }

    @Test(arguments: StoreEngine.selected)
    func aSerialTakenAlreadyFailsItsRecordAndFinishedJobsArePruned(engine: StoreEngine) async throws {
        let clock = TestClock()
        try await engine.withStore(clock: clock) { store in
            _ = try await store.createPass(Fixture.pass("S-2"))
            try await Self.job(store, records: 3)
            let claims = try await store.claimBulkRecords(instance: "a", limit: 10, lease: .seconds(10))
            let settlements = claims.map {
                BulkSettlement($0, .issue(NewPass(
                    key: PassKey(passTypeIdentifier: Fixture.passType, serialNumber: $0.serialNumber), template: "loyalty", data: "{}",
                    authenticationToken: String(repeating: "t", count: 32))))
            }
            let job = try await store.settleBulkRecords(settlements, instance: "a")
            #expect(job.issued == 2 && job.failed == 1 && job.state == .completed)
            let failed = try await store.bulkResults(job: "job_1", after: 0, limit: 10).filter { $0.state == "failed" }
            #expect(failed.map(\.line) == [2] && failed[0].errors?.contains("exists already") == true)

            #expect(try await store.pruneBulkJobs(before: clock.now()) == 0, "kept for the retention")
            clock.advance(.seconds(60))
            #expect(try await store.pruneBulkJobs(before: clock.now()) == 1)
            #expect(try await store.bulkJob("job_1") == nil)
            #expect(try await store.bulkResults(job: "job_1", after: 0, limit: 10).isEmpty, "its records went with it")
        }
    }

    @Test(arguments: StoreEngine.selected)
    func aSerialRepeatedInOneSettlementIsIssuedOnceAcrossItsStatements(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            try await Self.job(store, records: 1_201)
            let claims = try await store.claimBulkRecords(instance: "a", limit: 2_000, lease: .seconds(10))
            #expect(claims.count == 1_201)
            // Line 700 repeats line 3's serial number, in the settlement's second insert statement.
            let settlements = claims.map { claim in
                BulkSettlement(claim, .issue(NewPass(
                    key: PassKey(passTypeIdentifier: Fixture.passType, serialNumber: claim.line == 700 ? "S-3" : claim.serialNumber),
                    template: "loyalty", data: claim.record, authenticationToken: String(repeating: "t", count: 32))))
            }
            let job = try await store.settleBulkRecords(settlements, instance: "a")
            #expect(job.issued == 1_200 && job.failed == 1 && job.state == .completed)
            let results = try await store.bulkResults(job: "job_1", after: 0, limit: 2_000)
            #expect(results.filter { $0.state == "failed" }.map(\.line) == [700])
            #expect(results.compactMap(\.issuedOrdinal) == Array(1...1_200), "ordinals number the issued records in line order")
            #expect(try await store.pass(Fixture.key("S-3"))?.data == #"{"n":3}"#, "the first record with the serial number holds it")
            #expect(try await store.bulkIssuedSerials(job: "job_1", ordinals: 699...700) == ["S-699", "S-701"], "line 700 has no ordinal")
        }
    }

    @Test(arguments: StoreEngine.selected)
    func claimsCrossRunsOfUnreadableLinesAndTakeOverLinesLeftBehindTheirCursor(engine: StoreEngine) async throws {
        let clock = TestClock()
        try await engine.withStore(clock: clock) { store in
            // 5,000 lines unreadable at upload (more than two claim windows), then 3 records.
            try await store.createBulkJob(id: "job_1", template: "loyalty", format: "csv", validation: .each, origin: .api)
            for batch in (1...5_000).batches(of: WalletStore.bulkRecordInsertBatch) {
                try await store.addBulkRecords(job: "job_1", batch.map { BulkRecordDraft(line: $0, serialNumber: "", record: nil, errors: "[]") })
            }
            try await store.addBulkRecords(job: "job_1", (5_001...5_003).map {
                BulkRecordDraft(line: $0, serialNumber: "S-\($0)", record: #"{"n":\#($0)}"#, errors: nil)
            })
            _ = try await store.openBulkJob("job_1", records: 5_003, unreadable: 5_000)
            let first = try await store.claimBulkRecords(instance: "a", limit: 2, lease: .seconds(10))
            #expect(first.map(\.line) == [5_001, 5_002])
            let second = try await store.claimBulkRecords(instance: "b", limit: 2, lease: .seconds(10))
            #expect(second.map(\.line) == [5_003], "past the cursor")
            #expect(try await store.claimBulkRecords(instance: "b", limit: 2, lease: .seconds(10)).isEmpty, "every record is leased")

            // a dies; once its lease lapses its lines, behind the cursor, are taken over.
            try await store.settleBulkRecords(Self.issue(second), instance: "b")
            clock.advance(.seconds(11))
            let takenOver = try await store.claimBulkRecords(instance: "b", limit: 10, lease: .seconds(10))
            #expect(takenOver.map(\.line) == [5_001, 5_002])
            let job = try await store.settleBulkRecords(Self.issue(takenOver), instance: "b")
            #expect(job.state == .completed && job.issued == 3 && job.failed == 5_000)
        }
    }

    @Test(arguments: StoreEngine.selected)
    func aLapsedLeaseBehindTheCursorIsTakenOverBeforeLinesAhead(engine: StoreEngine) async throws {
        let clock = TestClock()
        try await engine.withStore(clock: clock) { store in
            try await store.createBulkJob(id: "job_1", template: "loyalty", format: "csv", validation: .each, origin: .api)
            try await store.addBulkRecords(job: "job_1", (1...8).map { BulkRecordDraft(line: $0, serialNumber: "S-\($0)", record: "{}", errors: nil) })
            _ = try await store.openBulkJob("job_1", records: 8, unreadable: 0)
            #expect(try await store.claimBulkRecords(instance: "a", limit: 2, lease: .seconds(5)).map(\.line) == [1, 2])
            #expect(try await store.claimBulkRecords(instance: "b", limit: 2, lease: .seconds(60)).map(\.line) == [3, 4])
            // a dies; its lease lapses while b's holds: the next claim takes a's lines, not 5 and 6.
            clock.advance(.seconds(6))
            #expect(try await store.claimBulkRecords(instance: "c", limit: 2, lease: .seconds(60)).map(\.line) == [1, 2])
            #expect(try await store.claimBulkRecords(instance: "c", limit: 4, lease: .seconds(60)).map(\.line) == [5, 6, 7, 8])
            #expect(try await store.claimBulkRecords(instance: "d", limit: 4, lease: .seconds(60)).isEmpty, "b's lines stay b's while its lease holds")
        }
    }

    @Test(arguments: StoreEngine.selected)
    func aClaimThatFindsNothingAheadMovesTheCursorPastTheWindowsItSearched(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            // One record, then 5,000 lines unreadable at upload.
            try await store.createBulkJob(id: "job_1", template: "loyalty", format: "csv", validation: .each, origin: .api)
            try await store.addBulkRecords(job: "job_1", [BulkRecordDraft(line: 1, serialNumber: "S-1", record: "{}", errors: nil)])
            for batch in (2...5_001).batches(of: WalletStore.bulkRecordInsertBatch) {
                try await store.addBulkRecords(job: "job_1", batch.map { BulkRecordDraft(line: $0, serialNumber: "", record: nil, errors: "[]") })
            }
            _ = try await store.openBulkJob("job_1", records: 5_001, unreadable: 5_000)
            func cursor() async throws -> Int64 {
                try await store.database.query(SQL("SELECT claimed_through FROM bulk_jobs WHERE id = 'job_1'"))[0].int64("claimed_through")
            }
            #expect(try await store.claimBulkRecords(instance: "a", limit: 10, lease: .seconds(10)).map(\.line) == [1])
            #expect(try await cursor() == 1)
            #expect(try await store.claimBulkRecords(instance: "b", limit: 10, lease: .seconds(10)).isEmpty)
            #expect(try await cursor() == 5_001, "the next claim starts at the job's last line")
        }
    }
}
