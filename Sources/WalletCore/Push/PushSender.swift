import APNs
import Foundation

/// Sends one pass-update push: the seam between the push worker and APNs, so the worker's handling
/// of every answer can be exercised against any sender (the APNs client in production).
public protocol PushSender: Sendable {
    /// Pushes an empty payload to `pushToken` on `topic` (the pass type identifier) and reports what
    /// APNs answered, or why it did not.
    func send(pushToken: String, topic: String) async -> PushAnswer
}

/// What one push attempt came to: the action the worker takes, and APNs's answer as sent, which the
/// store keeps on the device for operators (``WalletStore/recordPushOutcome(deviceLibraryIdentifier:at:status:reason:)``).
public struct PushAnswer: Sendable, Equatable {
    /// What the worker does about it.
    public var result: PushResult
    /// APNs's HTTP status; `nil` when no answer came (the connection failed or timed out).
    public var status: Int?
    /// APNs's reason (`BadDeviceToken`, `Unregistered`…), or why no answer came; `nil` for a 200.
    public var reason: String?

    /// An answer; without a status, one derived from the result where the result implies it
    /// (200, 410, 400, 403), else none.
    public init(_ result: PushResult, status: Int? = nil, reason: String? = nil) {
        self.result = result
        self.status = status ?? result.impliedStatus
        self.reason = reason ?? result.impliedReason
    }
}

/// What a push attempt came to, in the terms the worker acts on (Apple's APNs documentation: status codes and reasons).
public enum PushResult: Sendable, Equatable {
    /// Accepted by APNs.
    case delivered
    /// 410: the token is no longer valid for the topic since `since` (drop the registration unless
    /// the device registered again after that).
    case unregistered(since: Date?)
    /// 400 BadDeviceToken: drop the device.
    case badDeviceToken
    /// 400 DeviceTokenNotForTopic: drop the registration for this pass type.
    case deviceTokenNotForTopic
    /// 429, 5xx, or the connection failed: try again as `hint` says — APNs's own suggestion, kept as
    /// a value so "reconnect now" (503 `Shutdown`) is not read as "back off" (any other retry). A
    /// failed connection is ``APNsRetrySuggestion/backOff``.
    case retry(_ hint: APNsRetrySuggestion, reason: String)
    /// 403: the identity's certificate is refused; stop sending for it and tell an operator.
    case credentialsRejected(reason: String)
    /// Another 4xx: the request itself is wrong; retrying cannot help.
    case requestRejected(reason: String)

    /// The status every answer of this kind has, when there is only one.
    var impliedStatus: Int? {
        switch self {
        case .delivered: 200
        case .unregistered: 410
        case .badDeviceToken, .deviceTokenNotForTopic: 400
        case .credentialsRejected: 403
        case .retry, .requestRejected: nil
        }
    }

    /// The reason this kind of answer carries.
    var impliedReason: String? {
        switch self {
        case .delivered: nil
        case .unregistered: "Unregistered"
        case .badDeviceToken: "BadDeviceToken"
        case .deviceTokenNotForTopic: "DeviceTokenNotForTopic"
        case .retry(_, let reason), .credentialsRejected(let reason), .requestRejected(let reason): reason
        }
    }
}
