import APNs
import Foundation

/// Sends pass-update pushes through one pass type's APNs client (one long-lived HTTP/2 connection),
/// translating APNs answers into what the push worker acts on.
struct APNsPushSender: PushSender {
    let client: APNsClient

    func send(pushToken: String, topic: String) async -> PushResult {
        do {
            let response = try await client.send(pushToken: pushToken, topic: topic)
            switch response.outcome {
            case .delivered: return .delivered
            case .unregistered(let since): return .unregistered(since: since)
            case .badDeviceToken: return .badDeviceToken
            case .deviceTokenNotForTopic: return .deviceTokenNotForTopic
            case .retry: return .retry(reason: response.reason ?? "HTTP \(response.status)")
            case .credentialsRejected(let reason): return .credentialsRejected(reason: reason)
            case .requestRejected(let reason): return .requestRejected(reason: reason)
            }
        } catch {
            return .retry(reason: "transport: \(error)")
        }
    }
}
