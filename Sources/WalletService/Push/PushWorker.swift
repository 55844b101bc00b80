import Logging
import Locking
import Foundation
import HTTPServer
import WalletStore

/// Drains the push outbox: claims due rows (shared safely with other instances), sends each through
/// the sender of its pass type, and applies every APNs answer to the store — done, drop the
/// registration or device, retry with backoff and jitter, or stop an identity whose certificate
/// APNs refuses. Every answer (and every attempt that got none) is also kept on its device as its
/// last push status and reason. Rows are deleted only after APNs accepted them, so pending pushes survive a crash
/// (at least once).
public final class PushWorker: Sendable {
    private let store: WalletStore
    private let senders: [String: any PushSender]
    private let configuration: PushWorkerConfiguration
    private let logger: Logger
    private let state = Locked(PushState())
    /// Spaces sends at `configuration.rate`; `nil` sends as fast as APNs answers.
    private let pacer: Locked<PushPacer>?
    private let started = ContinuousClock.now

    /// Counters for `/metrics` and `/api/v1/push/stats`.
    struct PushState {
        var sent = 0
        var failures: [String: Int] = [:]
        /// Identities APNs refused (403), by pass type, with the reason.
        var stoppedIdentities: [String: String] = [:]
    }

    /// Creates a worker; `senders` maps each pass type identifier to the sender of its identity.
    public init(store: WalletStore, senders: [String: any PushSender], configuration: PushWorkerConfiguration = PushWorkerConfiguration(), logger: Logger) {
        self.store = store
        self.senders = senders
        self.configuration = configuration
        self.logger = logger
        pacer = configuration.rate.map { Locked(PushPacer(rate: $0)) }
    }

    /// The pushes per second this instance sends at most, if limited.
    public var rate: Int? { configuration.rate }

    /// Waits for this push's slot at the configured rate.
    private func pace() async {
        guard let pacer else { return }
        let elapsed = ContinuousClock.now - started
        let now = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let wait = pacer.withLock { $0.take(at: now) }
        if wait > 0 { try? await Task.sleep(for: .seconds(wait)) }
    }

    /// Whether any pass type has a sender; a worker without one has nothing to do.
    public var hasSenders: Bool { !senders.isEmpty }

    /// Pass types whose identity APNs refused, with the reason; shown by `/readyz` and `/metrics`.
    public var stoppedIdentities: [String: String] { state.withLock { $0.stoppedIdentities } }

    /// Pushes sent and failures by reason since start.
    var counters: PushState { state.withLock { $0 } }

    /// Drains until the task is cancelled.
    public func run() async {
        logger.info("push worker started", ["instance": configuration.instance])
        while !Task.isCancelled {
            let handled: Int
            do {
                handled = try await drainOnce()
            } catch {
                logger.error("push worker round failed", ["error": "\(error)"])
                handled = 0
            }
            if handled == 0 { try? await Task.sleep(for: configuration.idleDelay) }
        }
    }

    /// Claims one batch of due pushes and handles all of them; returns how many were claimed.
    @discardableResult
    public func drainOnce() async throws -> Int {
        let jobs = try await store.claimPushes(instance: configuration.instance, limit: configuration.claimSize, lease: configuration.lease)
        guard !jobs.isEmpty else { return 0 }
        await withTaskGroup(of: Void.self) { group in
            var running = 0
            for job in jobs {
                if running >= configuration.concurrency {
                    await group.next()
                    running -= 1
                }
                group.addTask { await self.handle(job) }
                running += 1
            }
        }
        return jobs.count
    }

    private func handle(_ job: PushJob) async {
        let topic = job.passTypeIdentifier
        if let reason = state.withLock({ $0.stoppedIdentities[topic] }) {
            await retry(job, after: configuration.maximumBackoff, reason: "identity stopped: \(reason)")
            return
        }
        guard let sender = senders[topic] else {
            await retry(job, after: backoff(attempts: job.attempts), reason: "no APNs identity for \(topic)")
            return
        }
        await pace()
        let answer = await sender.send(pushToken: job.pushToken, topic: topic)
        await recordOutcome(answer, of: job)
        do {
            switch answer.result {
            case .delivered:
                // Completed before it is counted, so whoever reads `sent` finds the outbox without it.
                try await store.completePush(job)
                state.withLock { $0.sent += 1 }
            case .unregistered(let since):
                count("Unregistered")
                try await store.dropRegistration(deviceLibraryIdentifier: job.deviceLibraryIdentifier, passTypeIdentifier: topic, unlessRegisteredAfter: since)
                try await store.completePush(job)
            case .badDeviceToken:
                count("BadDeviceToken")
                try await store.dropDevice(deviceLibraryIdentifier: job.deviceLibraryIdentifier)
            case .deviceTokenNotForTopic:
                count("DeviceTokenNotForTopic")
                try await store.dropRegistration(deviceLibraryIdentifier: job.deviceLibraryIdentifier, passTypeIdentifier: topic, unlessRegisteredAfter: nil)
                try await store.completePush(job)
            case .retry(let reason):
                count(reason)
                await retry(job, after: backoff(attempts: job.attempts), reason: reason)
            case .credentialsRejected(let reason):
                count("credentials rejected")
                state.withLock { $0.stoppedIdentities[topic] = reason }
                logger.error("APNs refused the identity; pushes for this pass type are stopped until it is fixed and the server restarted", ["passTypeIdentifier": topic, "reason": reason])
                await retry(job, after: configuration.maximumBackoff, reason: "credentials rejected: \(reason)")
            case .requestRejected(let reason):
                count(reason)
                logger.error("APNs rejected a push request; not retrying", ["passTypeIdentifier": topic, "reason": reason])
                try await store.completePush(job)
            }
        } catch {
            logger.error("cannot record a push result; the lease will expire and it will be retried", ["error": "\(error)"])
        }
    }

    /// Keeps the answer on the device for operators, before the answer is applied (a device it drops
    /// takes the record with it). A failure to record is logged and changes nothing else.
    private func recordOutcome(_ answer: PushAnswer, of job: PushJob) async {
        do {
            try await store.recordPushOutcome(
                deviceLibraryIdentifier: job.deviceLibraryIdentifier, at: store.clock.now(), status: answer.status, reason: answer.reason)
        } catch {
            logger.error("cannot record a push answer on its device", ["error": "\(error)"])
        }
    }

    private func count(_ reason: String) {
        state.withLock { $0.failures[reason, default: 0] += 1 }
    }

    private func retry(_ job: PushJob, after delay: Duration, reason: String) async {
        do {
            try await store.retryPush(job, after: delay, error: reason)
        } catch {
            logger.error("cannot reschedule a push; the lease will expire and it will be retried", ["error": "\(error)"])
        }
    }

    /// `base · 2^attempts`, capped, times a random factor in [0.5, 1] so retries of many devices spread out.
    func backoff(attempts: Int) -> Duration {
        let base = Double(configuration.baseBackoff.components.seconds) + Double(configuration.baseBackoff.components.attoseconds) / 1e18
        let cap = Double(configuration.maximumBackoff.components.seconds)
        let seconds = min(base * pow(2, Double(min(attempts, 30))), cap) * Double.random(in: 0.5...1)
        return .milliseconds(Int64(seconds * 1000))
    }
}
