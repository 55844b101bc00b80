import PasswrightLogging
import Locking
import APNs
import Foundation
import WalletStore

/// Drains the push outbox: claims due rows (shared safely with other instances), sends each through
/// the sender of its pass type, and applies every APNs answer to the store — done, drop the
/// registration or device, retry with backoff and jitter, or stop an identity whose certificate
/// APNs refuses. Every answer (and every attempt that got none) is also kept on its device as its
/// last push status and reason. Rows are deleted only after APNs accepted them, so pending pushes survive a crash
/// (at least once).
///
/// Idle, it sleeps on a ``Doorbell`` until the earliest row falls due or `idleDelay` passes, whichever
/// is first, and is woken at once by the store when a commit queues pushes here, and on PostgreSQL by
/// a listener hearing `NOTIFY passwright_outbox` from any instance sharing the outbox.
public final class PushWorker: Sendable {
    private let store: WalletStore
    private let senders: [String: any PushSender]
    private let configuration: PushWorkerConfiguration
    private let logger: Logger
    private let state = Locked(PushState())
    /// Spaces sends at a pace under `configuration.rate` that follows ``deviceCalls``; `nil` sends
    /// as fast as APNs answers.
    private let pacer: Locked<PushPacer>?
    /// How long devices' calls after pushes take lately, which the pace keeps under its target.
    private let deviceCalls: DeviceCallMonitor
    /// The pace pushes were accepted at lately, for the outbox's ETA.
    private let sendRate = Locked(SendRate())
    private let started = ContinuousClock.now
    /// Rung when pushes may have been queued; the idle worker waits on it.
    private let doorbell: Doorbell
    /// Readies what the devices of a slice of pushes will fetch before the slice is sent
    /// (``PassService/signAhead(_:)``); nothing for a worker made without it.
    private let prepare: @Sendable ([PushJob]) async -> Void
    /// Pushes readied at a time: small enough that the first pushes of a batch go out within
    /// milliseconds and signing the next slice overlaps sending this one, large enough that a slice's
    /// query and its last, lone builds are a small part of it.
    static let preparedSlice = 128

    /// Counters for `/metrics` and `/api/v1/push/stats`.
    public struct PushState {
        public var sent = 0
        public var failures: [String: Int] = [:]
        /// Identities APNs refused (403), by pass type, with the reason.
        public var stoppedIdentities: [String: String] = [:]
    }

    /// Creates a worker; `senders` maps each pass type identifier to the sender of its identity.
    ///
    /// Pushes this process queues wake it only through the store's `pushesQueued`, which
    /// ``WalletServices`` wires to the worker's doorbell; a worker made here wakes at the earliest due
    /// time, at a PostgreSQL notification or after `idleDelay`.
    convenience init(store: WalletStore, senders: [String: any PushSender], configuration: PushWorkerConfiguration = PushWorkerConfiguration(), logger: Logger) {
        self.init(store: store, senders: senders, configuration: configuration, doorbell: Doorbell(), deviceCalls: DeviceCallMonitor(), logger: logger)
    }

    /// Creates a worker that sleeps on `doorbell`, which the store rings after queuing pushes, calls
    /// `prepare` with each slice of a claimed batch before sending it, and paces pushes by the answer
    /// times the HTTP layer records in `deviceCalls`.
    init(
        store: WalletStore, senders: [String: any PushSender], configuration: PushWorkerConfiguration, doorbell: Doorbell,
        deviceCalls: DeviceCallMonitor, prepare: @escaping @Sendable ([PushJob]) async -> Void = { _ in }, logger: Logger
    ) {
        self.doorbell = doorbell
        self.deviceCalls = deviceCalls
        self.prepare = prepare
        self.store = store
        self.senders = senders
        self.configuration = configuration
        self.logger = logger
        let target = configuration.deviceCallTarget / .seconds(1)
        pacer = configuration.rate.map { Locked(PushPacer(rate: $0, target: target)) }
    }

    /// The pushes per second this instance sends at most, if limited.
    public var rate: Int? { configuration.rate }

    /// The pushes per second this instance allows now: the ceiling, or less while devices' calls are
    /// slower than the target; `nil` when not limited.
    public var pace: Double? { pacer?.withLock { $0.rate } }

    /// Seconds since the worker was made, on the clock the pacer and the send rate share.
    private var uptime: Double {
        (ContinuousClock.now - started) / .seconds(1)
    }

    /// Pushes APNs accepted per second over the last 10 seconds, `nil` when none: what a wave goes at,
    /// the configured rate being a ceiling.
    public var recentRate: Double? {
        let now = uptime
        return sendRate.withLock { $0.perSecond(at: now) }
    }

    /// Waits for this push's slot at the pace, which moves (every half second) by how long devices'
    /// calls took lately.
    private func waitForSlot() async {
        guard let pacer else { return }
        let now = uptime
        if pacer.withLock({ $0.isDueForAdjustment(at: now) }) {
            let p90 = deviceCalls.recentP90
            pacer.withLock { $0.adjust(deviceCallP90: p90, at: now) }
        }
        let wait = pacer.withLock { $0.take(at: now) }
        if wait > 0 { try? await Task.sleep(for: .seconds(wait)) }
    }

    /// Whether any pass type has a sender; a worker without one has nothing to do.
    public var hasSenders: Bool { !senders.isEmpty }

    /// Pass types whose identity APNs refused, with the reason; shown by `/readyz` and `/metrics`.
    public var stoppedIdentities: [String: String] { state.withLock { $0.stoppedIdentities } }

    /// Pushes sent and failures by reason since start.
    public var counters: PushState { state.withLock { $0 } }

    /// Drains until the task is cancelled; on PostgreSQL also listens for pushes other instances
    /// queue. Returns once the listener has closed its connection.
    public func run() async {
        logger.info("push worker started", ["instance": configuration.instance])
        await withTaskGroup(of: Void.self) { group in
            if store.sharesOutbox {
                group.addTask { await self.listen() }
            }
            await drain()
            group.cancelAll()
        }
    }

    /// Claims and sends while there is work; idle, sleeps until rung, until the earliest row falls
    /// due or for `idleDelay`, whichever is first.
    private func drain() async {
        while !Task.isCancelled {
            let handled: Int
            do {
                handled = try await drainOnce()
            } catch {
                logger.error("push worker round failed", ["error": "\(error)"])
                handled = 0
            }
            if handled == 0 { await doorbell.wait(upTo: await idleWait()) }
        }
    }

    /// How long an idle round may sleep: until the earliest outbox row is claimable, at most
    /// `idleDelay` (also when that cannot be read).
    private func idleWait() async -> Duration {
        let fallback = configuration.idleDelay
        let due: Date?
        do {
            due = try await store.nextPushDue()
        } catch {
            logger.error("cannot read when the next push is due", ["error": "\(error)"])
            return fallback
        }
        guard let due else { return fallback }
        let milliseconds = Int64((due.timeIntervalSince(store.clock.now()) * 1000).rounded(.up))
        // At least a millisecond: a row another instance is claiming right now looks due until its
        // claim commits, and must not turn this loop into a spin.
        return min(fallback, .milliseconds(max(1, milliseconds)))
    }

    /// Rings the doorbell for every `NOTIFY passwright_outbox` (and once each time listening starts,
    /// for what was queued while not listening); reconnects after a pause that doubles per failure,
    /// up to 30 s, while the `idleDelay` fallback keeps pushes moving. Returns when cancelled.
    private func listen() async {
        var pause = configuration.listenerRetry
        while !Task.isCancelled {
            let listening = Locked(false)
            do {
                try await store.listenForQueuedPushes { [doorbell] in
                    listening.withLock { $0 = true }
                    doorbell.ring()
                }
                return
            } catch {
                if listening.withLock({ $0 }) { pause = configuration.listenerRetry }
                logger.warning("push listener lost its PostgreSQL connection; reconnecting", ["error": "\(error)", "retryIn": "\(pause)"])
            }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(30))
        }
    }

    /// Claims one batch of due pushes and handles all of them, each slice after ``prepare`` readied
    /// it; returns how many were claimed. Pushes APNs accepted are settled together at the end of the
    /// round, in one transaction.
    @discardableResult
    public func drainOnce() async throws -> Int {
        let jobs = try await store.claimPushes(instance: configuration.instance, limit: configuration.claimSize, lease: configuration.lease)
        guard !jobs.isEmpty else { return 0 }
        let delivered = await withTaskGroup(of: PushJob?.self) { group in
            var delivered: [PushJob] = []
            var running = 0
            for (index, job) in jobs.enumerated() {
                // Sends already started keep going (paced) while the next slice is readied.
                if index % Self.preparedSlice == 0 { await prepare(Array(jobs[index..<min(jobs.count, index + Self.preparedSlice)])) }
                if running >= configuration.concurrency, let finished = await group.next() {
                    if let finished { delivered.append(finished) }
                    running -= 1
                }
                group.addTask { await self.handle(job) }
                running += 1
            }
            for await finished in group {
                if let finished { delivered.append(finished) }
            }
            return delivered
        }
        await settle(delivered)
        return jobs.count
    }

    /// Completes the pushes APNs accepted and counts them (after the completion, so whoever reads
    /// `sent` finds the outbox without them).
    private func settle(_ delivered: [PushJob]) async {
        guard !delivered.isEmpty else { return }
        do {
            try await store.completeDeliveredPushes(delivered, at: store.clock.now())
            state.withLock { $0.sent += delivered.count }
            let now = uptime
            sendRate.withLock { $0.record(delivered.count, at: now) }
        } catch {
            logger.error("cannot record delivered pushes; their leases will expire and they will be sent again", ["count": String(delivered.count), "error": "\(error)"])
        }
    }

    /// Sends one push and applies any answer but acceptance; returns the job when APNs accepted it,
    /// for ``settle(_:)``.
    private func handle(_ job: PushJob) async -> PushJob? {
        let topic = job.passTypeIdentifier
        if let reason = state.withLock({ $0.stoppedIdentities[topic] }) {
            await retry(job, after: configuration.maximumBackoff, reason: "identity stopped: \(reason)")
            return nil
        }
        guard let sender = senders[topic] else {
            await retry(job, after: backoff(attempts: job.attempts), reason: "no APNs identity for \(topic)")
            return nil
        }
        await waitForSlot()
        let answer = await sender.send(pushToken: job.pushToken, topic: topic)
        if case .delivered = answer.result { return job }  // settled with the round
        await recordOutcome(answer, of: job)
        do {
            switch answer.result {
            case .delivered:
                break  // returned above
            case .unregistered(let since):
                count("Unregistered")
                try await store.dropRegistration(deviceLibraryIdentifier: job.deviceLibraryIdentifier, passTypeIdentifier: topic, unlessRegisteredAfter: since)
                try await store.completePush(job)
            case .badDeviceToken:
                count("BadDeviceToken")
                try await store.dropDevice(deviceLibraryIdentifier: job.deviceLibraryIdentifier)
            case .deviceTokenNotForTopic:
                count("DeviceTokenNotForTopic")
                try await store.dropRegistration(
                    deviceLibraryIdentifier: job.deviceLibraryIdentifier, passTypeIdentifier: topic, unlessRegisteredAfter: nil, reason: "DeviceTokenNotForTopic")
                try await store.completePush(job)
            case .retry(let hint, let reason):
                count(reason)
                await retry(job, after: delay(for: hint, attempts: job.attempts), reason: reason)
            case .credentialsRejected(let reason):
                count("credentials rejected")
                state.withLock { $0.stoppedIdentities[topic] = reason }
                logger.error("APNs refused the identity; pushes for this pass type are stopped until it is fixed and the server restarted", ["passTypeIdentifier": topic, "reason": reason])
                await retry(job, after: configuration.maximumBackoff, reason: "credentials rejected: \(reason)")
            case .requestRejected(let reason):
                count(reason)
                logger.error("APNs rejected a push request; not retrying", ["passTypeIdentifier": topic, "reason": reason])
                try await store.completePush(job, failure: reason)
            }
        } catch {
            logger.error("cannot record a push result; the lease will expire and it will be retried", ["error": "\(error)"])
        }
        return nil
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

    /// How long a push waits after APNs asked for a retry: no wait when APNs said to reconnect (503
    /// `Shutdown`: this connection is draining, a new one takes the push) and the push had not failed
    /// before — a push refused so again on its new connection backs off like any other, so a server
    /// that keeps draining is not hammered; ``backoff(attempts:)`` otherwise.
    func delay(for hint: APNsRetrySuggestion, attempts: Int) -> Duration {
        switch hint {
        case .reconnect where attempts == 0: .zero
        case .reconnect, .backOff, .backOffForToken: backoff(attempts: attempts)
        }
    }

    /// `base · 2^attempts`, capped, times a random factor in [0.5, 1] so retries of many devices spread out.
    func backoff(attempts: Int) -> Duration {
        let base = configuration.baseBackoff / .seconds(1)
        let cap = Double(configuration.maximumBackoff.components.seconds)
        let seconds = min(base * pow(2, Double(min(attempts, 30))), cap) * Double.random(in: 0.5...1)
        return .milliseconds(Int64(seconds * 1000))
    }
}
