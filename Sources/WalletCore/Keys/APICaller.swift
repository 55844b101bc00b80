/// Who is calling the admin API, as the route's auth resolved it: an API key, or the admin token (the
/// owner's bootstrap key, every scope). Handlers read it from the request context to check a template
/// the path does not name (an issue's body) and to name the actor of what they write.
public struct APICaller: Sendable, Equatable {
    /// The key's id; `nil` for the admin token.
    public let keyID: String?
    public let name: String
    public let scopes: Set<APIScope>
    /// The templates it may touch; `nil` for all.
    public let templates: Set<String>?

    /// The admin token: every scope, every template.
    public static let adminToken = APICaller(keyID: nil, name: "admin token", scopes: Set(APIScope.allCases), templates: nil)

    public init(keyID: String?, name: String, scopes: Set<APIScope>, templates: Set<String>?) {
        self.keyID = keyID
        self.name = name
        self.scopes = scopes
        self.templates = templates
    }

    /// Whether it may touch passes and versions of `template`.
    public func allows(template: String) -> Bool {
        templates?.contains(template) ?? true
    }

    /// How events and history name it: `key <id>`, or `api` for the admin token (as before keys).
    public var actor: String { keyID.map { "key \($0)" } ?? "api" }
}
