import Foundation
import Signing

/// Standard Webhooks signing (standardwebhooks.com): the secret is `whsec_` and base64 of random
/// bytes; a delivery's `webhook-signature` is `v1,` and base64 of HMAC-SHA256 over
/// `<webhook-id>.<webhook-timestamp>.<body>` under the decoded secret, one per valid secret,
/// space-separated, so a receiver mid-rotation accepts either.
enum WebhookSignature {
    static let prefix = "whsec_"

    /// A new secret: 32 random bytes.
    static func newSecret() -> String {
        prefix + Data(SecureRandom.bytes(32)).base64EncodedString()
    }

    /// The `webhook-signature` value for `body`, signed with each of `secrets` in order.
    static func header(id: String, timestamp: Int64, body: Data, secrets: [String]) -> String {
        let signed = Data("\(id).\(timestamp).".utf8) + body
        return secrets.compactMap { secret -> String? in
            guard secret.hasPrefix(prefix), let key = Data(base64Encoded: String(secret.dropFirst(prefix.count))) else { return nil }
            return "v1," + Digest.hmacSHA256(key: key, data: signed).base64EncodedString()
        }.joined(separator: " ")
    }
}
