import WalletStore

/// Who is calling the admin API, as the route's auth resolved it: an API key, or the admin token (the
/// owner's bootstrap key, every scope), and where the request came from. Handlers read it from the
/// request context to check a template the path does not name (an issue's body) and to name the
/// author of what they write (``origin``).
public struct APICaller: Sendable, Equatable {
    /// Who made a write and from where (``WalletStore/WriteOrigin``), for adapters that cannot import the store.
    public typealias Origin = WriteOrigin

    /// The key's id; `nil` for the admin token.
    public let keyID: String?
    public let name: String
    public let scopes: Set<APIScope>
    /// The templates it may touch; `nil` for all.
    public let templates: Set<String>?
    /// The request's client address.
    public private(set) var address: String?
    /// `cli` when the `passwright` command line sent the request, else `api`.
    public private(set) var source: Origin.Source = .api

    /// The admin token: every scope, every template.
    public static let adminToken = APICaller(keyID: nil, name: "admin token", scopes: Set(APIScope.allCases), templates: nil)

    /// The User-Agent the `passwright` command line sends, up to its version.
    public static let commandLineAgent = "passwright-cli/"

    public init(keyID: String?, name: String, scopes: Set<APIScope>, templates: Set<String>?) {
        self.keyID = keyID
        self.name = name
        self.scopes = scopes
        self.templates = templates
    }

    /// The same caller on a request from `address` with the User-Agent `agent`.
    public func calling(from address: String?, agent: String?) -> APICaller {
        var caller = self
        caller.address = address
        caller.source = agent?.hasPrefix(Self.commandLineAgent) == true ? .cli : .api
        return caller
    }

    /// Whether it may touch passes and versions of `template`.
    public func allows(template: String) -> Bool {
        templates?.contains(template) ?? true
    }

    /// How events and history name it: `key <id>`, or `api` for the admin token (as before keys).
    public var actor: String { keyID.map { "key \($0)" } ?? "api" }

    /// The author of a write it makes: the history, the event and the audit row name it.
    public var origin: Origin { Origin(actor: actor, source: source, address: address) }
}
