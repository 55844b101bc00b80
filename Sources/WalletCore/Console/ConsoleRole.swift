/// What a console user may do, as the API scopes the role holds: the console checks a page's or a
/// form's scope against it exactly as the router checks an API key's, and shows only what it allows.
public enum ConsoleRole: String, Sendable, CaseIterable, Codable {
    /// Everything, users included.
    case owner
    /// Templates and passes: publish and roll back, issue, change, push.
    case editor
    /// Look passes up, change their data, push them again; see templates; no keys, webhooks or users.
    case support
    /// Read only.
    case viewer

    public var scopes: Set<APIScope> {
        switch self {
        case .owner: Set(APIScope.allCases)
        case .editor: [.templatesRead, .templatesWrite, .passesRead, .passesWrite, .passesIssue, .pushSend, .eventsRead, .analyticsRead, .ordersRead, .ordersWrite]
        case .support: [.templatesRead, .passesRead, .passesWrite, .pushSend, .ordersRead, .ordersWrite]
        case .viewer: [.templatesRead, .passesRead, .eventsRead, .analyticsRead, .ordersRead]
        }
    }

    /// Whether the role may manage console users (invite, change roles, disable): the owner only.
    public var managesUsers: Bool { self == .owner }

    /// What the users page says it may do.
    public var summary: String {
        switch self {
        case .owner: "everything, users included"
        case .editor: "templates and passes: publish, issue, change, push"
        case .support: "look passes up, change their data, push them again"
        case .viewer: "read only"
        }
    }
}
