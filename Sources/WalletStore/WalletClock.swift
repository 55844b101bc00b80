import Foundation

/// The store's source of "now", in epoch milliseconds.
///
/// Leases, retry times and `updated_at` all come from here, so tests pin time instead of sleeping
/// (a lease expiry is proven by advancing a clock, not by waiting for it).
public protocol WalletClock: Sendable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    func nowMilliseconds() -> Int64
}

extension WalletClock {
    /// "Now" as a `Date`, for callers that speak Foundation time (download link expiry, lint dates).
    public func now() -> Date {
        Milliseconds.date(nowMilliseconds())
    }
}

/// The wall clock, for production.
public struct SystemWalletClock: WalletClock {
    /// A clock reading the system time.
    public init() {}

    /// The system time, truncated to the millisecond.
    public func nowMilliseconds() -> Int64 {
        Int64((Date.now.timeIntervalSince1970 * 1_000).rounded(.down))
    }
}

/// Conversions between the store's integer milliseconds and Swift time values.
enum Milliseconds {
    /// The instant `milliseconds` after the epoch.
    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1_000)
    }

    /// `date` in whole milliseconds since the epoch, rounded down.
    static func of(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000).rounded(.down))
    }

    /// `duration` in whole milliseconds, rounded down; negative durations count as zero.
    static func of(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return max(0, seconds * 1_000 + attoseconds / 1_000_000_000_000_000)
    }
}
