import Foundation
import PassCompiler
import PasswrightLogging
import Storage
import WalletStore

/// Issues the records of bulk jobs: claims a batch of one job's open records under a lease, checks
/// (and for an issuing job, builds) each on every core outside any transaction, then settles the
/// batch in one transaction that inserts the passes and moves the job. Every instance runs one; the
/// leases (`SKIP LOCKED` on PostgreSQL) keep two from working on the same records, and a lease whose
/// holder died lapses and is taken over, so a job resumes after a crash without issuing a record twice.
public final class BulkJobWorker: Sendable {
    let store: WalletStore
    let templates: TemplateLibrary
    let configuration: BulkJobWorkerConfiguration
    let doorbell: Doorbell
    let logger: Logger

    init(store: WalletStore, templates: TemplateLibrary, configuration: BulkJobWorkerConfiguration, doorbell: Doorbell, logger: Logger) {
        self.store = store
        self.templates = templates
        self.configuration = configuration
        self.doorbell = doorbell
        self.logger = logger
    }

    /// Works until the surrounding task is cancelled.
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            if store.sharesOutbox {
                group.addTask {
                    await NotificationListener.run("bulk job", doorbell: self.doorbell, logger: self.logger) { try await self.store.listenForBulkJobs($0) }
                }
            }
            while !Task.isCancelled {
                var claimed = 0
                do {
                    claimed = try await round()
                } catch WalletStoreError.leaseLost(let what) {
                    logger.warning("a bulk job's lease lapsed before its batch was settled; another instance settles it", ["record": what])
                } catch {
                    logger.error("bulk job round failed", ["error": "\(error)"])
                    try? await Task.sleep(for: .seconds(1))
                }
                // Leases of a dead instance lapse without a signal: an idle worker looks again after one lease.
                if claimed == 0 { await doorbell.wait(upTo: min(configuration.idleDelay, configuration.lease)) }
            }
            group.cancelAll()
        }
    }

    /// One batch: claimed, worked and settled; returns how many records were claimed.
    func round() async throws -> Int {
        let claims = try await store.claimBulkRecords(instance: configuration.instance, limit: configuration.batchSize, lease: configuration.lease)
        guard !claims.isEmpty else { return 0 }
        // A version published while the batch was built is current when it would be stored: the batch
        // is built again from it (as an issue is), within the lease.
        var attempt = 1, job: BulkJob
        while true {
            do {
                job = try await store.settleBulkRecords(try await build(claims), instance: configuration.instance)
                break
            } catch WalletStoreError.templateVersionSuperseded where attempt < PassWriter.defaultMaximumAttempts {
                attempt += 1
            }
        }
        if job.state.isFinished {
            logger.info("bulk job finished", ["job": job.id, "state": job.state.rawValue, "issued": String(job.issued), "failed": String(job.failed)])
        }
        return claims.count
    }

    /// What becomes of each claimed record (of one job), built from its template's current version.
    private func build(_ claims: [BulkClaim]) async throws -> [BulkSettlement] {
        do {
            let (version, compiler) = try await templates.currentCompiler(claims[0].template)
            return await Self.work(claims, workers: configuration.parallelism) { claim in
                Self.settle(claim, compiler: compiler, version: version)
            }
        } catch let error as ServiceError {
            // The template is gone: every record fails, saying so.
            let errors = BulkJobService.errorsText(InvalidValues.entries(of: error))
            return claims.map { BulkSettlement($0, .failed(errors: errors)) }
        }
    }

    /// What becomes of one record: only checked while its job validates first, else built.
    static func settle(_ claim: BulkClaim, compiler: PassCompiler, version: Int64) -> BulkSettlement {
        do {
            guard case .object(let data) = try PassService.value(claim.record) else {
                throw ServiceError.invalid("the record is not a JSON object")
            }
            // The record's own serial number is taken from it (and checked); otherwise the one chosen at upload.
            let own = data["serialNumber"].map { $0 != .null && $0 != .string("") } ?? false
            let pass = try PassService.prepare(
                PassService.Issue(template: claim.template, serialNumber: own ? nil : claim.serialNumber, data: data, overrides: [:]),
                compiler: compiler, version: version)
            return BulkSettlement(claim, claim.issues ? .issue(pass) : .valid)
        } catch {
            return BulkSettlement(claim, .failed(errors: BulkJobService.errorsText(InvalidValues.entries(of: error))))
        }
    }

    /// `body` over `claims` on `workers` tasks, results in claim order.
    static func work(_ claims: [BulkClaim], workers: Int, _ body: @escaping @Sendable (BulkClaim) -> BulkSettlement) async -> [BulkSettlement] {
        let chunk = max(1, (claims.count + workers - 1) / workers)
        return await withTaskGroup(of: (Int, [BulkSettlement]).self) { group in
            for slice in claims.batches(of: chunk) {
                group.addTask { (slice.startIndex, slice.map(body)) }
            }
            var parts: [(Int, [BulkSettlement])] = []
            for await part in group { parts.append(part) }
            return parts.sorted { $0.0 < $1.0 }.flatMap(\.1)
        }
    }
}

/// How the bulk job worker works: its identity among instances, its batch and its pace.
public struct BulkJobWorkerConfiguration: Sendable {
    /// Names this instance's leases.
    public var instance: String
    /// How long a claim holds its records before another instance may take them over.
    public var lease: Duration
    /// Records per claim and per settling transaction.
    public var batchSize: Int
    /// Records built at once.
    public var parallelism: Int
    /// The longest an idle worker sleeps without a signal.
    public var idleDelay: Duration

    public init(
        instance: String = "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))",
        lease: Duration = .seconds(60), batchSize: Int = 200, parallelism: Int = ProcessInfo.processInfo.activeProcessorCount,
        idleDelay: Duration = .seconds(30)
    ) {
        self.instance = instance
        self.lease = lease
        self.batchSize = batchSize
        self.parallelism = parallelism
        self.idleDelay = idleDelay
    }
}
