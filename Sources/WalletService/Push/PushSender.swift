import Foundation

/// Sends one pass-update push: the seam between the push worker and APNs, so the worker's handling
/// of every answer can be exercised against any sender (the APNs client in production).
public protocol PushSender: Sendable {
    /// Pushes an empty payload to `pushToken` on `topic` (the pass type identifier).
    func send(pushToken: String, topic: String) async -> PushResult
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
    /// 429, 5xx, or the connection failed: try again later with backoff.
    case retry(reason: String)
    /// 403: the identity's certificate is refused; stop sending for it and tell an operator.
    case credentialsRejected(reason: String)
    /// Another 4xx: the request itself is wrong; retrying cannot help.
    case requestRejected(reason: String)
}
