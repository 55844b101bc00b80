/// One thing a designer would point at in a pass: where it is, what it says now, the exact change,
/// and what the person holding the pass sees differently afterwards.
///
/// `rule` is a stable identifier (`contrast.foreground`, `image.size`, or a PassModel rule such as
/// `fields.uniqueKeys`), so tools and tests can filter findings without parsing sentences.
public struct Finding: Sendable, Hashable, Codable {
    /// How much a finding matters; cases are ordered most severe first.
    public enum Severity: String, Sendable, Hashable, Codable, Comparable, CaseIterable {
        /// Wallet refuses the pass or silently falls back to a plainer design.
        case error
        /// The pass works but looks or behaves worse than it should.
        case warning
        /// A suggestion; never fails a lint run.
        case advice

        private var rank: Int {
            switch self {
            case .error: return 0
            case .warning: return 1
            case .advice: return 2
            }
        }

        /// `error < warning < advice`, so sorting ascending puts the most severe first.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// Stable rule identifier.
    public var rule: String
    /// How much it matters.
    public var severity: Severity
    /// A file and/or JSON path: `pass.json storeCard.primaryFields[0].value`, `strip@2x.png`.
    public var location: String
    /// The current value quoted as written (`"foregroundColor": "rgb(200, 200, 200)"`), or `—` when missing.
    public var before: String
    /// The exact replacement value or key to add. For mechanical fixes it is JSON members
    /// (`"textAlignment": "PKTextAlignmentNatural"`) to merge into the object holding `location`'s key.
    public var after: String
    /// One sentence on what the person holding the pass sees or feels differently.
    public var effect: String
    /// The change After describes, as a value a tool can apply to the pass (``Fix/apply(to:)``), for
    /// findings that change how the pass looks; `nil` for the rest.
    public var fix: Fix?
    /// The before and after pictures drawn for this finding (`passwright lint --pictures`), when drawn.
    public var pictures: Pictures?

    /// The value `before` takes when the thing is missing.
    public static let missing = "—"

    /// Creates a finding.
    public init(rule: String, severity: Severity, location: String, before: String, after: String, effect: String, fix: Fix? = nil) {
        self.rule = rule
        self.severity = severity
        self.location = location
        self.before = before
        self.after = after
        self.effect = effect
        self.fix = fix
    }

    /// Where a finding's pictures were written: the pass as it is and with the fix applied.
    public struct Pictures: Sendable, Hashable, Codable {
        /// The pass as it is (`DIR/contrast.label-1-before.png`).
        public var before: String
        /// The pass with ``Finding/fix`` applied (`DIR/contrast.label-1-after.png`).
        public var after: String

        /// Creates the pair of paths.
        public init(before: String, after: String) {
            self.before = before
            self.after = after
        }
    }
}
