/// A JSON body of the admin API, as one value: the route encodes it, the CLI decodes the same type,
/// and `WireSchemaTests` checks an instance against the schema named here, so the three cannot drift
/// apart (style rule 16: each wire shape once).
public protocol WireValue: Codable, Sendable, Equatable {
    /// The shape's schema in `openapi-base.json` (`components.schemas`), which the routes reference.
    static var schemaName: String { get }
}
