import PasswrightTesting
import Storage
import Testing
@testable import WalletStore

/// A claim finds and leases its records by a range of lines: an index search bounded by the lines,
/// not a read of the whole job. PostgreSQL's generic plans of the prepared statements (what runs after
/// a statement's fifth execution, estimated before the table has statistics) read and sorted every
/// open record of the job for each claim, so a job's rate fell as it grew (1,700 records/s at 20,000,
/// 2,900 at 100,000 with the settlement batched). Asserted on the plan, not on a time.
@Suite struct BulkClaimPlanTests {
    @Test(arguments: StoreEngine.selected)
    func aClaimSearchesTheJobsRecordsWithinItsLines(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            try await BulkJobStoreTests.job(store, records: 3_000)
            let lease = WalletStore.leaseStatement(job: "job_1", lines: Array(1_201...1_400), instance: "a", until: 1)
            let lines = try await store.database.queryPlan(of: lease).lines
            switch store.database.engine {
            case .sqlite:
                #expect(lines.contains { $0.hasPrefix("SEARCH bulk_job_records") && $0.contains("job_id=? AND line") }, "\(lines)")
                #expect(!lines.contains { $0.hasPrefix("SCAN bulk_job_records") }, "\(lines)")
            case .postgres:
                let condition = try #require(lines.first { $0.contains("Index Cond") }, "\(lines)")
                #expect(condition.contains("job_id =") && condition.contains("line >="), "the lines bound the index scan: \(lines)")
            }
        }
    }

    @Test(arguments: StoreEngine.selected)
    func aClaimReadsTheLinesPastItsCursorNotTheWholeJob(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            try await BulkJobStoreTests.job(store, records: 3_000)
            for validating in [false, true] {
                let claimable = WalletStore.claimableStatement(
                    job: "job_1", validating: validating, after: 1_000, through: 3_000, now: 1, limit: 200, engine: store.database.engine)
                let lines = try await store.database.queryPlan(of: claimable).lines
                switch store.database.engine {
                case .sqlite:
                    #expect(lines.contains { $0.hasPrefix("SEARCH bulk_job_records") && $0.contains("job_id=? AND line>? AND line<?") }, "\(lines)")
                    #expect(!lines.contains { $0.hasPrefix("SCAN bulk_job_records") }, "\(lines)")
                case .postgres:
                    // The window's bounds are index conditions of the scan the rows come from.
                    #expect(lines.contains { $0.contains("Index Cond") && $0.contains("line >") && $0.contains("line <=") }, "\(lines)")
                    #expect(lines.contains { $0.contains("bulk_job_records_open") }, "the open records' index: \(lines)")
                }
            }
        }
    }

    @Test(arguments: StoreEngine.selected)
    func aPageOfResultsReadsARangeOfLines(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            try await BulkJobStoreTests.job(store, records: 3_000)
            for failedOnly in [false, true] {
                let page = WalletStore.resultsStatement(job: "job_1", after: 1_000, through: 3_000, limit: 500, failedOnly: failedOnly)
                let lines = try await store.database.queryPlan(of: page).lines
                switch store.database.engine {
                case .sqlite:
                    #expect(lines.contains { $0.hasPrefix("SEARCH bulk_job_records") && $0.contains("job_id=? AND line>? AND line<?") }, "\(lines)")
                case .postgres:
                    #expect(lines.contains { $0.contains("Index Cond") && $0.contains("line >") && $0.contains("line <=") }, "\(lines)")
                }
            }
            // Pages across ranges: every line once, in order, whatever the page size.
            let all = try await store.bulkResults(job: "job_1", after: 0, limit: 10_000)
            #expect(all.map(\.line) == Array(1...3_000))
            var paged: [Int] = []
            var after = 0
            while case let page = try await store.bulkResults(job: "job_1", after: after, limit: 700), let last = page.last {
                paged += page.map(\.line)
                after = last.line
            }
            #expect(paged == Array(1...3_000))
            #expect(try await store.bulkResults(job: "job_1", after: 0, limit: 10, failedOnly: true).isEmpty)
        }
    }
}
