import Foundation
import PassModel
import WalletStore

/// A bulk issuing job as the admin API shows it: where it stands, how fast it goes, and where its
/// results and bundles are.
public struct BulkJobDetails: WireValue {
    public static let schemaName = "BulkJob"

    public var id: String
    public var template: String
    /// `csv` or `jsonl`.
    public var format: String
    /// `each` (issue the valid records, report the others) or `first` (all valid or none issued).
    public var validation: String
    /// `receiving`, `validating`, `issuing`, `completed` or `rejected`.
    public var state: String
    /// Records in the upload, unreadable lines included.
    public var records: Int
    public var issued: Int
    public var failed: Int
    /// Records not settled yet.
    public var pending: Int
    /// Records settled per second since the first, `null` before then.
    @NullWhenAbsent public var ratePerSecond: Double?
    /// Seconds left at that rate, `null` when unknown or finished.
    @NullWhenAbsent public var etaSeconds: Double?
    /// `.pkpasses` bundles of the issued passes: `GET …/bundle?part=1` to this.
    public var bundleParts: Int
    public var createdAt: Date
    @NullWhenAbsent public var startedAt: Date?
    @NullWhenAbsent public var finishedAt: Date?
    /// Who created it.
    public var actor: String

    public init(
        id: String, template: String, format: String, validation: String, state: String, records: Int, issued: Int, failed: Int,
        pending: Int, ratePerSecond: Double?, etaSeconds: Double?, bundleParts: Int, createdAt: Date, startedAt: Date?,
        finishedAt: Date?, actor: String
    ) {
        (self.id, self.template, self.format, self.validation, self.state) = (id, template, format, validation, state)
        (self.records, self.issued, self.failed, self.pending) = (records, issued, failed, pending)
        (self.ratePerSecond, self.etaSeconds, self.bundleParts) = (ratePerSecond, etaSeconds, bundleParts)
        (self.createdAt, self.startedAt, self.finishedAt, self.actor) = (createdAt, startedAt, finishedAt, actor)
    }

    public init(_ job: BulkJob) {
        // Records the workers settled (lines unreadable at upload were failed before any started).
        let settled = job.issued + job.failed + job.validated
        let pending = max(0, job.records - job.issued - job.failed)
        var rate: Double?
        if let started = job.startedAt {
            let seconds = (job.finishedAt ?? job.updatedAt).timeIntervalSince(started)
            if seconds > 0 { rate = (Double(settled) / seconds * 10).rounded() / 10 }
        }
        // Validating first, every record is settled twice: checked, then issued.
        let left = job.state == .validating ? (job.records - job.validated - job.failed) + job.records : pending
        let eta = job.state.isFinished ? nil : rate.flatMap { $0 > 0 ? (Double(left) / $0).rounded() : nil }
        self.init(
            id: job.id, template: job.template, format: job.format, validation: job.validation.rawValue, state: job.state.rawValue,
            records: job.records, issued: job.issued, failed: job.failed, pending: pending, ratePerSecond: rate, etaSeconds: eta,
            bundleParts: BulkJobService.bundleParts(of: job), createdAt: job.createdAt, startedAt: job.startedAt,
            finishedAt: job.finishedAt, actor: job.actor)
    }
}

/// `GET /api/v1/jobs`: the newest jobs first.
public struct BulkJobList: WireValue {
    public static let schemaName = "BulkJobList"
    public var jobs: [BulkJobDetails]

    public init(jobs: [BulkJobDetails]) {
        self.jobs = jobs
    }
}

/// One line of a job's results (`GET /api/v1/jobs/{id}/results`, one JSON object per line, or a CSV row).
public struct BulkResultLine: WireValue {
    public static let schemaName = "BulkResult"

    /// The line of the upload the record starts on.
    public var line: Int
    /// The serial number of its pass (issued or to be); `null` for a line that could not be read.
    @NullWhenAbsent public var serialNumber: String?
    /// `pending`, `valid` (checked, waiting to be issued), `issued` or `failed`.
    public var state: String
    /// A signed holder download link of the pass, once issued.
    @NullWhenAbsent public var downloadURL: String?
    /// The `.pkpasses` bundle that holds the pass (`…/bundle?part=N`), once issued.
    @NullWhenAbsent public var bundlePart: Int?
    /// Why it failed: every invalid value by JSON path.
    @NullWhenAbsent public var errors: [JSONValue]?

    public init(line: Int, serialNumber: String?, state: String, downloadURL: String?, bundlePart: Int?, errors: [JSONValue]?) {
        self.line = line
        self.serialNumber = serialNumber
        self.state = state
        self.downloadURL = downloadURL
        self.bundlePart = bundlePart
        self.errors = errors
    }

    /// The errors as `path: message`, joined by `; `: how the CSV results and the CLI show them.
    public var errorSummary: String {
        (errors ?? []).map { entry -> String in
            guard case .object(let object) = entry else { return "" }
            let path = object["path"].flatMap { if case .string(let path) = $0 { path } else { nil } } ?? ""
            let message = object["message"].flatMap { if case .string(let message) = $0 { message } else { nil } } ?? ""
            return path.isEmpty ? message : "\(path): \(message)"
        }.joined(separator: "; ")
    }
}
