/// What `GET /api/v1/push/stats` answers (and `passwright push stats` prints): the outbox and this
/// instance's push counters.
public struct PushStats: WireValue {
    public static let schemaName = "PushStats"

    /// Pushes waiting or in flight.
    public var queued: Int
    /// Pushes claimed by an instance whose lease has not lapsed.
    public var inFlight: Int
    /// How long the oldest push has waited; `null` when the outbox is empty.
    public var oldestPendingSeconds: Int64?
    /// Pushes APNs accepted since this instance started.
    public var sent: Int
    /// This instance's failures since start, by APNs reason.
    public var failuresByReason: [String: Int]
    /// Pushes waiting whose last attempt failed, by that failure's reason.
    public var pendingByLastError: [String: Int]
    /// Pass types whose APNs identity was refused, with the reason.
    public var stoppedIdentities: [String: String]
    /// The configured send rate; `null` when pushes go as fast as APNs answers.
    public var ratePerSecond: Int?
    /// Seconds to drain the outbox at this instance's rate, with one instance sending (several share
    /// the outbox and go faster); `null` without a rate.
    public var etaSeconds: Int?

    public init(
        queued: Int, inFlight: Int, oldestPendingSeconds: Int64?, sent: Int, failuresByReason: [String: Int],
        pendingByLastError: [String: Int], stoppedIdentities: [String: String], ratePerSecond: Int?, etaSeconds: Int?
    ) {
        self.queued = queued
        self.inFlight = inFlight
        self.oldestPendingSeconds = oldestPendingSeconds
        self.sent = sent
        self.failuresByReason = failuresByReason
        self.pendingByLastError = pendingByLastError
        self.stoppedIdentities = stoppedIdentities
        self.ratePerSecond = ratePerSecond
        self.etaSeconds = etaSeconds
    }

    private enum CodingKeys: String, CodingKey {
        case queued, inFlight, oldestPendingSeconds, sent, failuresByReason, pendingByLastError, stoppedIdentities, ratePerSecond, etaSeconds
    }

    /// Writes the optional members as `null` when absent (the synthesized encoder would leave them out).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(queued, forKey: .queued)
        try container.encode(inFlight, forKey: .inFlight)
        try container.encode(oldestPendingSeconds, forKey: .oldestPendingSeconds)
        try container.encode(sent, forKey: .sent)
        try container.encode(failuresByReason, forKey: .failuresByReason)
        try container.encode(pendingByLastError, forKey: .pendingByLastError)
        try container.encode(stoppedIdentities, forKey: .stoppedIdentities)
        try container.encode(ratePerSecond, forKey: .ratePerSecond)
        try container.encode(etaSeconds, forKey: .etaSeconds)
    }
}
