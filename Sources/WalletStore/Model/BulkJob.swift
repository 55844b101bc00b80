import Foundation
import PassModel
import Storage

/// When a bulk job's records are checked against the template.
public enum BulkValidation: String, Sendable, Codable, CaseIterable {
    /// Each record is checked as it is issued: the valid ones are issued, the others reported.
    case each
    /// Every record is checked before any is issued: one invalid record rejects the job, nothing issued.
    case first
}

/// Where a bulk job stands.
public enum BulkJobState: String, Sendable, Codable, CaseIterable {
    /// The upload is still being read into the job's records; no worker takes it yet.
    case receiving
    /// Every record is being checked before any is issued (``BulkValidation/first``).
    case validating
    /// Records are being issued.
    case issuing
    /// Every record was issued or failed.
    case completed
    /// Validation first found invalid records: none was issued.
    case rejected

    /// Whether nothing more happens to the job.
    public var isFinished: Bool { self == .completed || self == .rejected }
}

/// A bulk issuing job as the store keeps it: its counters move in the same transaction as the passes.
public struct BulkJob: Sendable, Equatable {
    public let id: String
    public let template: String
    public let format: String
    public let validation: BulkValidation
    public let state: BulkJobState
    /// Records read from the upload (bad lines included).
    public let records: Int
    public let issued: Int
    public let failed: Int
    /// Records checked and waiting to be issued (validation first).
    public let validated: Int
    /// Who created it (the credential's name).
    public let actor: String
    public let createdAt: Date
    /// When a worker first claimed its records.
    public let startedAt: Date?
    public let finishedAt: Date?
    /// When its counters last moved, for the rate.
    public let updatedAt: Date

    init(row: Row) throws {
        id = try row.string("id")
        template = try row.string("template")
        format = try row.string("format")
        validation = BulkValidation(rawValue: try row.string("validation")) ?? .each
        state = BulkJobState(rawValue: try row.string("state")) ?? .receiving
        records = try row.int("records")
        issued = try row.int("issued")
        failed = try row.int("failed")
        validated = try row.int("validated")
        actor = try row.string("actor")
        createdAt = Milliseconds.date(try row.int64("created_at"))
        startedAt = try row.optionalInt64("started_at").map(Milliseconds.date)
        finishedAt = try row.optionalInt64("finished_at").map(Milliseconds.date)
        updatedAt = Milliseconds.date(try row.int64("updated_at"))
    }
}

/// One record of an upload, as the upload stores it.
public struct BulkRecordDraft: Sendable {
    /// The line of the upload it starts on.
    public var line: Int
    /// Its pass's serial number, chosen now: however often the record is retried, it can only ever
    /// make this one pass.
    public var serialNumber: String
    /// The record (JSON text), or `nil` for a line that could not be read.
    public var record: String?
    /// Why it could not be read (JSON text of the errors), for such a line.
    public var errors: String?

    public init(line: Int, serialNumber: String, record: String?, errors: String?) {
        self.line = line
        self.serialNumber = serialNumber
        self.record = record
        self.errors = errors
    }
}

/// A record a worker holds under its lease.
public struct BulkClaim: Sendable {
    public let jobID: String
    public let template: String
    /// What the worker does with it: only check it (the job validates first), or issue it.
    public let issues: Bool
    public let line: Int
    public let serialNumber: String
    public let record: String

    init(row: Row) throws {
        jobID = try row.string("job_id")
        template = try row.string("template")
        issues = try row.string("job_state") == BulkJobState.issuing.rawValue
        line = try row.int("line")
        serialNumber = try row.string("serial_number")
        record = try row.string("record")
    }
}

/// What became of a claimed record.
public struct BulkSettlement: Sendable {
    public enum Outcome: Sendable {
        /// Checked, waiting for the rest of the job to be checked.
        case valid
        /// Issue this pass.
        case issue(NewPass)
        /// Invalid: the errors (JSON text).
        case failed(errors: String)
    }

    public let claim: BulkClaim
    public let outcome: Outcome

    public init(_ claim: BulkClaim, _ outcome: Outcome) {
        self.claim = claim
        self.outcome = outcome
    }
}

/// One line of a job's results.
public struct BulkResult: Sendable, Equatable {
    public let line: Int
    public let serialNumber: String
    /// `pending`, `valid`, `issued` or `failed`.
    public let state: String
    /// Why it failed (JSON text of the errors).
    public let errors: String?
    /// Its place among the job's issued passes, from 1: what puts it in bundle `(ordinal - 1) / 10 + 1`.
    public let issuedOrdinal: Int?

    init(row: Row) throws {
        line = try row.int("line")
        serialNumber = try row.string("serial_number")
        state = try row.string("state")
        errors = try row.optionalString("errors")
        issuedOrdinal = try row.optionalInt64("issued_ordinal").map(Int.init)
    }
}
