import Foundation
import HTTPClient
import Locking
import PasswrightLogging
import WalletStore

/// Delivers webhook events from the outbox: each enabled endpoint's oldest pending delivery, one at a
/// time per endpoint (so it hears its events in order), several endpoints at once; signed the
/// Standard Webhooks way, retried with backoff and jitter for about three days, then given up with
/// the endpoint disabled. At least once: a delivery whose answer was lost (a crash, a timeout) is
/// sent again, with the same `webhook-id` for the receiver to deduplicate.
public final class WebhookWorker: Sendable {
    let store: WalletStore
    let webhooks: WebhookService
    let configuration: WebhookWorkerConfiguration
    let doorbell: Doorbell
    let logger: Logger
    private let client: HTTPClient?
    private let counters = Locked(Counters())

    /// What this instance did since it started, for `/metrics`.
    public struct Counters: Sendable, Equatable {
        public var delivered = 0
        public var failedAttempts = 0
        public var givenUp = 0
    }

    init(store: WalletStore, webhooks: WebhookService, configuration: WebhookWorkerConfiguration, doorbell: Doorbell, logger: Logger) {
        self.store = store
        self.webhooks = webhooks
        self.configuration = configuration
        self.doorbell = doorbell
        self.logger = logger
        client = try? HTTPClient(configuration: HTTPClientConfiguration(
            schemes: ["http", "https"], version: .http1_1, maxHostConnections: 4, requestTimeout: configuration.timeout,
            maxResponseBody: 64 << 10, threadName: "webhook-client"))
    }

    public var counts: Counters { counters.withLock { $0 } }

    /// Delivers until the surrounding task is cancelled.
    public func run() async {
        guard let client else {
            logger.error("webhooks are off: libcurl cannot make an HTTP client here")
            return
        }
        await withTaskGroup(of: Void.self) { group in
            if store.sharesOutbox {
                group.addTask {
                    await NotificationListener.run("webhook", doorbell: self.doorbell, logger: self.logger) { try await self.store.listenForQueuedWebhooks($0) }
                }
            }
            while !Task.isCancelled {
                let handled: Int
                do {
                    handled = try await round(client)
                } catch {
                    logger.error("webhook round failed", ["error": "\(error)"])
                    handled = 0
                }
                if handled == 0 { await doorbell.wait(upTo: await idleWait()) }
            }
            group.cancelAll()
        }
        await client.shutdown()
    }

    /// Claims the due heads and delivers them concurrently; returns how many were claimed.
    private func round(_ client: HTTPClient) async throws -> Int {
        let jobs = try await store.claimWebhookDeliveries(instance: configuration.instance, limit: 32, lease: configuration.lease)
        await withTaskGroup(of: Void.self) { group in
            for job in jobs {
                group.addTask { await self.deliver(job, with: client) }
            }
        }
        return jobs.count
    }

    private func deliver(_ job: WebhookJob, with client: HTTPClient) async {
        let started = ContinuousClock.now
        let attempt: WebhookAttempt
        do {
            let request = try await request(for: job)
            do {
                let response = try await client.send(request)
                attempt = outcome(of: job, status: response.status, error: nil, excerpt: String(decoding: response.body.prefix(512), as: UTF8.self),
                                  latency: ContinuousClock.now - started)
            } catch {
                attempt = outcome(of: job, status: nil, error: error.description, excerpt: nil, latency: ContinuousClock.now - started)
            }
        } catch {
            attempt = outcome(of: job, status: nil, error: "\(error)", excerpt: nil, latency: ContinuousClock.now - started)
        }
        counters.withLock { counters in
            switch attempt.result {
            case .delivered: counters.delivered += 1
            case .retry: counters.failedAttempts += 1
            case .giveUp: counters.failedAttempts += 1; counters.givenUp += 1
            }
        }
        if case .giveUp(let reason) = attempt.result {
            logger.warning("webhook endpoint disabled", ["endpoint": job.endpoint.id, "reason": reason])
        }
        do {
            try await store.settleWebhookDelivery(job, attempt)
        } catch {
            logger.error("cannot record a webhook delivery; its lease will lapse and it is sent again", ["error": "\(error)"])
        }
    }

    /// The signed request: the event as the API shows it, `webhook-id` its id, `webhook-timestamp` now.
    private func request(for job: WebhookJob) async throws -> HTTPClientRequest {
        guard let url = URL(string: job.endpoint.url) else { throw ServiceError.invalid("the endpoint's URL is not a URL") }
        let address = try await offPool { try WebhookDestination.resolve(url) }
        let body = try WireJSON.encoder().encode(Event(job.event))
        let now = store.clock.now()
        let timestamp = Int64(now.timeIntervalSince1970)
        let secrets = webhooks.secrets(of: job.endpoint, now: now)
        guard !secrets.isEmpty else { throw ServiceError.invalid("the endpoint's secret cannot be opened (was PASSWRIGHT_LINK_KEY changed?)") }
        return HTTPClientRequest(method: "POST", url: url, headers: [
            (name: "Content-Type", value: "application/json"),
            (name: "User-Agent", value: "Passwright-Webhooks/1"),
            (name: "webhook-id", value: job.event.id),
            (name: "webhook-timestamp", value: String(timestamp)),
            (name: "webhook-signature", value: WebhookSignature.header(id: job.event.id, timestamp: timestamp, body: body, secrets: secrets)),
            // libcurl would wait a second for `100 Continue` on large bodies; receivers answer anyway.
            (name: "Expect", value: ""),
        ], body: body, pinnedAddress: address)
    }

    /// 2xx delivers; 410 gives up at once; anything else retries while the schedule lasts.
    private func outcome(of job: WebhookJob, status: Int?, error: String?, excerpt: String?, latency: Duration) -> WebhookAttempt {
        if let status, (200..<300).contains(status) {
            return WebhookAttempt(result: .delivered, status: status, error: nil, latency: latency, responseExcerpt: excerpt)
        }
        if status == 410 {
            return WebhookAttempt(result: .giveUp(disabling: "the endpoint answered 410 Gone"), status: status, error: error, latency: latency, responseExcerpt: excerpt)
        }
        let failure = error ?? "answered \(status ?? 0)"
        guard job.attempts < configuration.retryDelays.count else {
            return WebhookAttempt(
                result: .giveUp(disabling: "\(job.attempts + 1) attempts failed; the last: \(failure)"), status: status, error: error,
                latency: latency, responseExcerpt: excerpt)
        }
        let base = configuration.retryDelays[job.attempts]
        let spread = 1 + Double.random(in: -configuration.jitter...configuration.jitter)
        let delay = Duration.milliseconds(Int64(Double(base.components.seconds * 1000 + base.components.attoseconds / 1_000_000_000_000_000) * spread))
        return WebhookAttempt(result: .retry(after: delay), status: status, error: error ?? "answered \(status ?? 0)", latency: latency, responseExcerpt: excerpt)
    }

    private func idleWait() async -> Duration {
        guard let due = try? await store.nextWebhookDue() else { return configuration.idleDelay }
        let milliseconds = Int64((due.timeIntervalSince(store.clock.now()) * 1000).rounded(.up))
        return min(configuration.idleDelay, .milliseconds(max(1, milliseconds)))
    }
}
