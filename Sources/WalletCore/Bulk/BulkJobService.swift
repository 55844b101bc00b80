import Foundation
import PassCompiler
import PassModel
import WalletStore

/// Bulk issuing: an upload of CSV or JSON Lines becomes a durable job whose records the
/// ``BulkJobWorker``s of every instance issue. The upload is read in constant memory (the server
/// spooled it to disk), each record stored with the serial number its pass will have, so a job that
/// resumes after a crash never issues a record twice.
public struct BulkJobService: Sendable {
    /// The store's values, under names the adapters (which do not import the store) can use.
    public typealias Job = BulkJob
    public typealias ResultLine = BulkResult
    public typealias Validation = BulkValidation

    let store: WalletStore
    let templates: TemplateLibrary
    let passes: PassService
    /// Rung when a job opens, so this instance's worker starts at once.
    let jobOpened: Doorbell
    /// How long a finished job (and its results) is kept: the event log's retention.
    let retention: Duration

    /// Creates a job for `template` from the records `input` holds, in `format`, and opens it to the
    /// workers. A CSV without a header row, or a template that does not exist, is refused before
    /// anything is stored; each unreadable line is stored failed, with its line named.
    public func create(
        template: String, format: RecordReader.Format, validation: BulkValidation, origin: APICaller.Origin, input: FileHandle
    ) async throws -> BulkJob {
        _ = try await templates.currentCompiler(template)
        var reader: RecordReader
        do {
            reader = try RecordReader(handle: input, format: format, file: "the upload")
        } catch {
            throw ServiceError.invalid("\(error)")
        }
        let id = Self.newID()
        try await store.createBulkJob(id: id, template: template, format: format.rawValue, validation: validation, origin: origin)
        var drafts: [BulkRecordDraft] = []
        drafts.reserveCapacity(WalletStore.bulkRecordInsertBatch)
        var (records, unreadable) = (0, 0)
        while let record = reader.next() {
            records += 1
            let draft = Self.draft(record)
            if draft.record == nil { unreadable += 1 }
            drafts.append(draft)
            if drafts.count == WalletStore.bulkRecordInsertBatch {
                try await store.addBulkRecords(job: id, drafts)
                drafts.removeAll(keepingCapacity: true)
            }
        }
        try await store.addBulkRecords(job: id, drafts)
        let job = try await store.openBulkJob(id, records: records, unreadable: unreadable)
        jobOpened.ring()
        return job
    }

    /// The job with `id`, or `nil`.
    public func job(_ id: String) async throws -> BulkJob? {
        try await store.bulkJob(id)
    }

    /// Deletes the jobs that finished (or never finished receiving) longer than the retention ago,
    /// a few at a time (each takes its records with it); returns how many.
    public func prune(now: Date = Date(), batch: Int = 20) async throws -> Int {
        let cutoff = now.addingTimeInterval(-Double(retention.components.seconds))
        return try await RetentionWorker.pruneInBatches(of: batch) { try await store.pruneBulkJobs(before: cutoff, limit: $0) }
    }

    /// The newest jobs first.
    public func recentJobs(limit: Int = 20) async throws -> [BulkJob] {
        try await store.bulkJobs(limit: limit)
    }

    /// Up to `limit` result lines after line `after` (only the failed ones with `failedOnly`).
    public func results(of job: BulkJob, after: Int, limit: Int, failedOnly: Bool = false) async throws -> [BulkResult] {
        try await store.bulkResults(job: job.id, after: after, limit: limit, failedOnly: failedOnly)
    }

    /// The pass type of the job's passes (its template's), `nil` when the template cannot be loaded now.
    public func passTypeIdentifier(of job: BulkJob) async throws -> String? {
        try? await templates.currentCompiler(job.template).1.template.passTypeIdentifier
    }

    /// The number of `.pkpasses` bundles the job's issued passes make, ``PassBundle/maximumPasses`` each.
    public static func bundleParts(of job: BulkJob) -> Int {
        (job.issued + PassBundle.maximumPasses - 1) / PassBundle.maximumPasses
    }

    /// The bundle that holds the pass issued `ordinal`-th.
    public static func bundlePart(ofOrdinal ordinal: Int) -> Int {
        (ordinal - 1) / PassBundle.maximumPasses + 1
    }

    /// Bundle `part` (from 1) of the job's issued passes, in the order they were issued (each result
    /// line names its part), each pass signed as it is now.
    public func bundle(of job: BulkJob, part: Int) async throws -> Data {
        let parts = Self.bundleParts(of: job)
        guard part >= 1, part <= parts else {
            throw ServiceError.invalid(parts == 0 ? "the job has issued no pass yet" : "part must be from 1 to \(parts)")
        }
        let (_, compiler) = try await templates.currentCompiler(job.template)
        let first = (part - 1) * PassBundle.maximumPasses + 1
        let serials = try await store.bulkIssuedSerials(job: job.id, ordinals: first...(first + PassBundle.maximumPasses - 1))
        let keys = serials.map { PassKey(passTypeIdentifier: compiler.template.passTypeIdentifier, serialNumber: $0) }
        let stored = try await store.passes(keys)
        var archives: [Data] = []
        for key in keys {
            // A pass erased since is left out of its bundle.
            guard let pass = stored[key] else { continue }
            archives.append(try await passes.archive(for: pass))
        }
        guard !archives.isEmpty else { throw ServiceError.invalid("the passes of part \(part) no longer exist") }
        return try PassBundle.make(archives)
    }

    /// Time-ordered, so the workers take jobs oldest first; random enough to be unguessable.
    static func newID() -> String {
        let milliseconds = UInt64(Date().timeIntervalSince1970 * 1000)
        return "job_" + String(milliseconds, radix: 16) + "_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
    }

    /// A record as stored: its JSON and the serial number its pass will have (the record's own, or a
    /// new UUID), or, for a line that could not be read, why.
    static func draft(_ record: RecordReader.Record) -> BulkRecordDraft {
        switch record.value {
        case .success(let value):
            var serial = UUID().uuidString.lowercased()
            if case .object(let object) = value, let given = PassService.string(object["serialNumber"]) { serial = given }
            return BulkRecordDraft(line: record.line, serialNumber: serial, record: PassService.text(value), errors: nil)
        case .failure(let error):
            return BulkRecordDraft(line: record.line, serialNumber: "", record: nil, errors: errorsText(InvalidValues.entries(of: error)))
        }
    }

    static func errorsText(_ entries: [JSONValue]) -> String {
        String(decoding: JSONValue.array(entries).serialized(sortedKeys: true), as: UTF8.self)
    }
}
