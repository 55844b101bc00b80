import APNs
import Foundation

/// Sends pass-update pushes through one pass type's APNs client (one long-lived HTTP/2 connection),
/// translating APNs answers into what the push worker acts on.
struct APNsPushSender: PushSender {
    let client: APNsClient

    func send(pushToken: String, topic: String) async -> PushAnswer {
        do {
            let response = try await client.send(pushToken: pushToken, topic: topic)
            let result: PushResult
            switch response.outcome {
            case .delivered: result = .delivered
            case .unregistered(let since): result = .unregistered(since: since)
            case .badDeviceToken: result = .badDeviceToken
            case .deviceTokenNotForTopic: result = .deviceTokenNotForTopic
            case .retry(let hint): result = .retry(hint, reason: response.reason ?? "HTTP \(response.status)")
            case .credentialsRejected(let reason): result = .credentialsRejected(reason: reason)
            case .requestRejected(let reason): result = .requestRejected(reason: reason)
            }
            return PushAnswer(result, status: response.status, reason: response.status == 200 ? nil : response.reason ?? result.impliedReason)
        } catch {
            return PushAnswer(.retry(.backOff, reason: "transport: \(error)"), status: nil, reason: "transport: \(error)")
        }
    }
}
