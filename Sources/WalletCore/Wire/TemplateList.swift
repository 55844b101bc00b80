/// What `GET /api/v1/templates` answers (and `passwright templates list` prints): every template,
/// by name, with whether it can issue passes.
public struct TemplateList: WireValue {
    public static let schemaName = "TemplateList"

    /// One template. A ready one names its pass type, team and placeholders; an unavailable one
    /// its reason. Absent members are left out, not written as `null`.
    public struct Entry: Codable, Sendable, Equatable {
        /// The template's name.
        public var name: String
        /// Whether the current version can issue passes.
        public var status: TemplateStatus
        /// The current version; absent for a folder that was refused.
        public var version: Int64?
        /// A ready template's pass type identifier.
        public var passTypeIdentifier: String?
        /// A ready template's team identifier.
        public var teamIdentifier: String?
        /// A ready template's placeholders: the record members a pass's `data` fills.
        public var placeholders: [String]?
        /// Why an unavailable template cannot issue passes.
        public var reason: String?

        /// Creates the value from its members.
        public init(
            name: String, status: TemplateStatus, version: Int64? = nil, passTypeIdentifier: String? = nil,
            teamIdentifier: String? = nil, placeholders: [String]? = nil, reason: String? = nil
        ) {
            self.name = name
            self.status = status
            self.version = version
            self.passTypeIdentifier = passTypeIdentifier
            self.teamIdentifier = teamIdentifier
            self.placeholders = placeholders
            self.reason = reason
        }
    }

    /// Sorted by name.
    public var templates: [Entry]

    /// Creates the value from its members.
    public init(templates: [Entry]) {
        self.templates = templates
    }
}
