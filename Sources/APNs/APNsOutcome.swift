import Foundation

/// The action an APNs answer calls for, so the push worker never interprets status codes itself (Apple's APNs documentation).
public enum APNsOutcome: Sendable, Equatable {
    /// 200: APNs accepted the push. The device still has to fetch the pass; acceptance is not an update.
    case delivered
    /// 410 `Unregistered` or `ExpiredToken`: stop pushing to this token and delete its registrations,
    /// unless the device registered again after `since`.
    case unregistered(since: Date?)
    /// 400 `BadDeviceToken`: on production the token is malformed or from the sandbox; delete the device.
    case badDeviceToken
    /// 400 `DeviceTokenNotForTopic`: the token belongs to another pass type; delete this registration.
    case deviceTokenNotForTopic
    /// 429 or 5xx: try again later as suggested.
    case retry(after: APNsRetrySuggestion)
    /// 403 (`BadCertificate`, `BadCertificateEnvironment`, `Forbidden`): the Pass Type ID certificate is
    /// refused. Stop pushing for this identity, shut its client down and alert; retrying is futile.
    case credentialsRejected(reason: String)
    /// Any other 4xx (`BadTopic`, `BadPriority`, `PayloadEmpty`, …): the request itself is wrong, a bug
    /// or misconfiguration. Do not retry; alert.
    case requestRejected(reason: String)
}

/// How to retry a push APNs could not take now.
public enum APNsRetrySuggestion: Sendable, Equatable {
    /// 429 `TooManyRequests`: this device token gets too many pushes; back off exponentially for it
    /// and coalesce (one pending push per device and pass type is enough).
    case backOffForToken
    /// 500 or 503 `ServiceUnavailable`: APNs is in trouble; retry with exponential backoff.
    case backOff
    /// 503 `Shutdown`: the server is draining this connection; retry right away on a new one. The client
    /// opens it by itself once the server's GOAWAY has closed the old one.
    case reconnect
}
