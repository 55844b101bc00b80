import Foundation
import HTTPClient

/// What APNs answered to one push: status and reason as sent, plus the classification the push worker acts on.
public struct APNsResponse: Sendable, Equatable {
    /// The HTTP status (200 accepted; 4xx and 5xx as Apple's APNs documentation lists them).
    public var status: Int
    /// The `reason` of the JSON error body (`BadDeviceToken`, `Unregistered`, …); `nil` on 200.
    public var reason: String?
    /// When APNs learnt the token was no longer valid (410 `Unregistered`): a registration made after
    /// this moment is newer than the failure and must be kept.
    public var timestamp: Date?
    /// The `apns-id` header APNs returns, the handle Apple support asks for when tracing a push.
    public var apnsID: String?

    /// Builds a response; the client makes these, tests and push workers may too.
    public init(status: Int, reason: String? = nil, timestamp: Date? = nil, apnsID: String? = nil) {
        self.status = status
        self.reason = reason
        self.timestamp = timestamp
        self.apnsID = apnsID
    }

    /// Reads APNs's answer: the status, the `apns-id` header and the JSON error body
    /// (`{"reason": "...", "timestamp": <ms since 1970, 410 only>}`).
    init(_ response: HTTPClientResponse) {
        let errorBody = try? JSONDecoder().decode(ErrorBody.self, from: response.body)
        self.init(
            status: response.status,
            reason: errorBody?.reason,
            timestamp: errorBody?.timestamp.map { Date(timeIntervalSince1970: $0 / 1000) },
            apnsID: response[header: "apns-id"].flatMap { $0.isEmpty ? nil : $0 }
        )
    }

    private struct ErrorBody: Decodable {
        var reason: String?
        var timestamp: Double?
    }

    /// What to do about this answer, following Apple's table (Apple's APNs documentation).
    public var outcome: APNsOutcome {
        switch (status, reason) {
        case (200, _):
            .delivered
        case (410, _):
            .unregistered(since: timestamp)
        case (400, "BadDeviceToken"):
            .badDeviceToken
        case (400, "DeviceTokenNotForTopic"):
            .deviceTokenNotForTopic
        case (429, _):
            .retry(after: .backOffForToken)
        case (503, "Shutdown"):
            .retry(after: .reconnect)
        case (500..<600, _):
            .retry(after: .backOff)
        case (403, _):
            .credentialsRejected(reason: reason ?? "HTTP 403")
        default:
            .requestRejected(reason: reason ?? "HTTP \(status)")
        }
    }
}
