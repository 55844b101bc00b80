/// What an API key may do. Every admin route names the one scope it needs (its route value), the
/// router refuses a key without it with `403`, and `/openapi.json` lists it on the operation.
public enum APIScope: String, Sendable, CaseIterable, Codable, Comparable {
    /// Read passes, their archives, pictures and history, device logs, bulk jobs and their results.
    case passesRead = "passes:read"
    /// Change passes: data, relevance, voiding; one pass or every pass of a template.
    case passesWrite = "passes:write"
    /// Erase holders' data (GDPR Art. 17): by pass or by a value in the records. Irreversible, so
    /// not part of `passes:write`.
    case passesErase = "passes:erase"
    /// Issue passes, one at a time or as bulk jobs.
    case passesIssue = "passes:issue"
    /// Read templates, their versions, lint and pictures.
    case templatesRead = "templates:read"
    /// Publish and roll back template versions.
    case templatesWrite = "templates:write"
    /// Force pushes and read the push queue.
    case pushSend = "push:send"
    /// Read the event log.
    case eventsRead = "events:read"
    /// Subscribe, change, replay and remove webhook endpoints.
    case webhooksManage = "webhooks:manage"
    /// Create, rotate and revoke API keys.
    case keysManage = "keys:manage"
    /// Read the programme's figures.
    case analyticsRead = "analytics:read"
    /// Read the audit trail: who changed what, from where.
    case auditRead = "audit:read"
    /// Read orders and their signed packages.
    case ordersRead = "orders:read"
    /// Create and change orders (status, fulfilments…), which pushes them to their devices.
    case ordersWrite = "orders:write"
    /// Erase customers' data from orders (GDPR Art. 17): by order or by a value in `order.json`.
    /// Irreversible, so not part of `orders:write`.
    case ordersErase = "orders:erase"

    public static func < (left: APIScope, right: APIScope) -> Bool { left.rawValue < right.rawValue }
}
