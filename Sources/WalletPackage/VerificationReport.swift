import Foundation
import Signing

/// The outcome of verifying a signed Wallet document (`PassVerifier`, `OrderVerifier`): one line per check, so a user sees everything wrong at once rather
/// than the first failure.
public struct VerificationReport: Sendable {
    /// One check and what it found.
    public struct Check: Sendable, CustomStringConvertible {
        /// How a check came out.
        public enum Outcome: String, Sendable {
            case passed = "ok"
            case warning = "warning"
            case failed = "FAILED"
        }

        /// Short name: `layout`, `manifest`, `signature`, …
        public let name: String
        /// Result.
        public let outcome: Outcome
        /// What was found, in a sentence.
        public let detail: String

        public var description: String { "[\(outcome.rawValue)] \(name): \(detail)" }
    }

    /// Every check, in the order run.
    public private(set) var checks: [Check] = []

    /// No check failed (warnings allowed).
    public var isValid: Bool { !checks.contains { $0.outcome == .failed } }

    /// Creates an empty report.
    public init() {}

    /// Records a check that passed.
    public mutating func pass(_ name: String, _ detail: String) { checks.append(Check(name: name, outcome: .passed, detail: detail)) }
    /// Records a finding Wallet accepts.
    public mutating func warn(_ name: String, _ detail: String) { checks.append(Check(name: name, outcome: .warning, detail: detail)) }
    /// Records a check that failed.
    public mutating func fail(_ name: String, _ detail: String) { checks.append(Check(name: name, outcome: .failed, detail: detail)) }

    /// Fails `certificate` when the signer is not valid at `now`: Wallet refuses new documents
    /// signed with an expired certificate.
    public mutating func checkValidity(of signer: Certificate, at now: Date) {
        if !signer.isValid(at: now) {
            fail("certificate", "the signing certificate is not valid now (valid \(signer.notBefore.formatted(.iso8601)) to \(signer.notAfter.formatted(.iso8601)))")
        }
    }
}
