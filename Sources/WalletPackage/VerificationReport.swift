/// The outcome of `PassVerifier`: one line per check, so a user sees everything wrong at once rather
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

    mutating func pass(_ name: String, _ detail: String) { checks.append(Check(name: name, outcome: .passed, detail: detail)) }
    mutating func warn(_ name: String, _ detail: String) { checks.append(Check(name: name, outcome: .warning, detail: detail)) }
    mutating func fail(_ name: String, _ detail: String) { checks.append(Check(name: name, outcome: .failed, detail: detail)) }
}
