/// How long the store keeps what the operator may want gone sooner: pass history, device logs and
/// voided passes, and whether expired passes are voided. `nil` keeps for good. (The event log and
/// the audit trail have their own settings.)
public struct RetentionSettings: Sendable, Equatable {
    /// A pass's change history (`GET /api/v1/passes/{type}/{serial}/history`, the console's list).
    public var history: Duration?
    /// Lines devices posted to the log endpoint (also capped by count).
    public var deviceLogs: Duration?
    /// How long after it was voided (its last change) a voided pass is erased: voided, its record
    /// blanked, a tombstone kept (as `DELETE /api/v1/passes/{type}/{serial}` does).
    public var voidedPasses: Duration?
    /// Whether passes past their `expirationDate` are voided (and pushed, so Wallet shows it), within
    /// the hour; Wallet shows an expired pass as expired either way.
    public var voidExpired: Bool

    public init(history: Duration? = nil, deviceLogs: Duration? = .seconds(30 * 86_400), voidedPasses: Duration? = nil, voidExpired: Bool = false) {
        self.history = history
        self.deviceLogs = deviceLogs
        self.voidedPasses = voidedPasses
        self.voidExpired = voidExpired
    }
}
