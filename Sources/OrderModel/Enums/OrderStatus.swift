import PassModel

/// The order's state (`status`). Apple's Order documentation counts `completed` and `cancelled` as closed:
/// a closed order can still be updated until `returnInfo.returnDeadline`.
public enum OrderStatus: String, Sendable, Hashable, CaseIterable, JSONStringEnum {
    case open
    case completed
    case cancelled
}

extension OrderStatus {
    /// Whether Wallet treats the order as finished (`completed` or `cancelled`).
    public var isClosed: Bool { self != .open }
}
