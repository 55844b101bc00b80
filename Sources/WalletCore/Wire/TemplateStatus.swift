/// Whether a template can issue passes, as the template list and details report it.
public enum TemplateStatus: String, Codable, Sendable, Equatable {
    /// Its current version compiles: passes can be issued.
    case ready
    /// It cannot issue passes; the shape's `reason` says why (a missing identity, lint errors…).
    case unavailable
}
