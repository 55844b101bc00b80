import Foundation
import Signing
import WalletStore

/// `Idempotency-Key` (the IETF httpapi draft, as Stripe does it) for the admin API's writes: the same
/// key with the same request answers what the first one answered, whichever instance gets it; with
/// another request it is a mistake (422); while the first is still running, a conflict (409). Keys
/// live a day, per credential.
public struct IdempotencyService: Sendable {
    let store: WalletStore
    /// How long a key is remembered.
    public static let lifetime: Duration = .seconds(24 * 3600)
    /// How long an unanswered key is honoured: longer than any request may run, so only a key whose
    /// first request died with its instance is taken over.
    public static let stale: Duration = .seconds(120)

    /// The longest key accepted.
    public static let maximumKeyLength = 255

    /// The request's identity for its key: method, path and body, hashed.
    public static func fingerprint(method: String, path: String, body: Data) -> String {
        Digest.sha256Hex(Data("\(method)\n\(path)\n".utf8) + body)
    }

    /// The same fingerprint of a request whose body is read from `body` (an upload spooled to disk).
    public static func fingerprint(method: String, path: String, reading body: FileHandle) throws -> String {
        try Digest.sha256Hex(Data("\(method)\n\(path)\n".utf8), thenReading: body)
    }

    /// What a request with a key should do.
    public enum Claim: Sendable, Equatable {
        /// Run it, then ``finish(scope:key:status:headers:body:)``.
        case proceed
        /// Answer this again.
        case replay(status: Int, headers: [(name: String, value: String)], body: Data)
        /// The same key is being answered right now.
        case inFlight
        /// The key was used with another request.
        case mismatch

        public static func == (left: Claim, right: Claim) -> Bool {
            switch (left, right) {
            case (.proceed, .proceed), (.inFlight, .inFlight), (.mismatch, .mismatch): true
            case let (.replay(a, b, c), .replay(x, y, z)): a == x && c == z && b.elementsEqual(y) { $0.name == $1.name && $0.value == $1.value }
            default: false
            }
        }
    }

    public func claim(scope: String, key: String, fingerprint: String) async throws -> Claim {
        switch try await store.claimIdempotencyKey(scope: scope, key: key, fingerprint: fingerprint, lifetime: Self.lifetime, stale: Self.stale) {
        case .proceed: .proceed
        case .inFlight: .inFlight
        case .mismatch: .mismatch
        case .replay(let answer):
            .replay(status: answer.status, headers: answer.headers.compactMap { $0.count == 2 ? (name: $0[0], value: $0[1]) : nil }, body: answer.body)
        }
    }

    public func finish(scope: String, key: String, status: Int, headers: [(name: String, value: String)], body: Data) async throws {
        try await store.finishIdempotencyKey(scope: scope, key: key, answer: IdempotentAnswer(status: status, headers: headers.map { [$0.name, $0.value] }, body: body))
    }

    public func release(scope: String, key: String) async throws {
        try await store.releaseIdempotencyKey(scope: scope, key: key)
    }

    /// Deletes expired keys, a batch at a time; returns how many.
    public func prune(now: Date = Date()) async throws -> Int {
        let cutoff = now.addingTimeInterval(-Double(Self.lifetime.components.seconds))
        return try await RetentionWorker.pruneInBatches(of: 1_000) { try await store.pruneIdempotencyKeys(before: cutoff, limit: $0) }
    }
}
