import Foundation
import WalletStore

/// The event log as the admin API reads it, and its retention.
public struct EventService: Sendable {
    let store: WalletStore
    /// How long events are kept.
    public let retention: Duration

    /// The page after `after` (the start when `nil`), `limit` events at most, of `types` and
    /// `template` when given. An unreadable cursor or type is a `ServiceError.invalid` naming it.
    public func page(after: String?, types: [String], template: String?, limit: Int) async throws -> EventPage {
        let cursor: EventCursor
        if let after {
            guard let parsed = EventCursor(after) else {
                throw ServiceError.invalid("after '\(after)' is not a cursor this server gave (use the 'next' of a page)")
            }
            cursor = parsed
        } else {
            cursor = .start
        }
        var wanted: Set<WalletEventType>?
        if !types.isEmpty {
            wanted = try Set(types.map { name in
                guard let type = WalletEventType(rawValue: name) else {
                    throw ServiceError.invalid("type '\(name)' is not an event type; use one of \(WalletEventType.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return type
            })
        }
        guard (1...WalletStore.maximumEventPage).contains(limit) else {
            throw ServiceError.invalid("limit must be 1 to \(WalletStore.maximumEventPage), not \(limit)")
        }
        // One more than asked for tells whether there is more.
        let events = try await store.events(after: cursor, types: wanted, template: template, limit: limit + 1)
        let page = Array(events.prefix(limit))
        return EventPage(events: page.map(Event.init), next: (page.last?.cursor ?? cursor).description, hasMore: events.count > limit)
    }

    /// Deletes events older than the retention, a batch at a time; returns how many.
    public func prune(now: Date = Date(), batch: Int = 1_000) async throws -> Int {
        let cutoff = now.addingTimeInterval(-Double(retention.components.seconds))
        return try await RetentionWorker.pruneInBatches(of: batch) { try await store.pruneEvents(before: cutoff, limit: $0) }
    }
}
