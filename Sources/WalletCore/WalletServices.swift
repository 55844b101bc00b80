import Foundation
import PasswrightLogging
import Signing
import Storage
import WalletStore

/// The services of one Passwright instance over one store: what the HTTP adapters (`WalletHTTP`) are
/// given instead of the store (style rule 14). It owns the store and the workers and wires them
/// together (the push doorbell, the roll-out wake-up, the hold releaser).
///
/// Its life: made without touching the database; ``start()`` opens, migrates and imports; the owner
/// runs ``runWorkers()`` beside its own adapters until cancelled, then calls ``close()`` once they
/// have stopped (see `WalletService.run()`).
///
/// Instances keep no state of their own beyond caches, so several can share one PostgreSQL database.
public final class WalletServices: Sendable {
    /// The newest database schema this build reads and writes (what a restored backup may hold at most).
    public static var schemaVersion: Int { WalletStore.schemaVersion }

    /// The configuration it runs with.
    public let configuration: ServiceConfiguration
    /// The persistent state: internal, so an adapter reaches it only through a service (tests see
    /// it with `@testable import`).
    let store: WalletStore
    private let database: DeferredDatabase
    private let identities: IdentityDirectory
    /// The templates it issues and renders from, as versions in the store.
    public let templates: TemplateLibrary
    /// Publishing, reading and rolling back template versions.
    public let templateVersions: TemplateService
    /// Carries a new template version to every pass of the template.
    public let rollouts: RolloutWorker
    /// Writes held notifying changes when they fall due.
    public let holds: HoldReleaser
    /// Drains the push outbox while the services run.
    public let pushWorker: PushWorker
    /// Passes, devices, logs and pushes.
    public let passes: PassService
    /// Wallet orders: created from order templates, changed by patches, signed on request.
    public let orders: OrderService
    /// Pictures of passes and templates, behind one cache for the API and the console.
    public let previews: PreviewService
    /// When each identity's certificate expires.
    public let expiry: IdentityExpiry
    /// Signs and checks holder download links.
    public let links: DownloadLinks
    /// What each holder's page shows.
    public let holderPages: HolderPages
    /// The web console's signed-in sessions.
    public let consoleSessions: ConsoleSessions
    /// The console's named users and their roles.
    public let consoleUsers: ConsoleUsers
    /// The event log.
    public let events: EventService
    /// Who changed what, from where: read by the admin API and the console, pruned by retention.
    public let audit: AuditService
    /// Webhook endpoints.
    public let webhooks: WebhookService
    /// `Idempotency-Key`s of the admin API's writes.
    public let idempotency: IdempotencyService
    /// Delivers webhook events.
    public let webhookWorker: WebhookWorker
    /// Bulk issuing jobs.
    public let bulkJobs: BulkJobService
    /// API keys and the check of every admin request's key.
    public let apiKeys: APIKeyService
    /// Issues the records of bulk jobs.
    public let bulkJobWorker: BulkJobWorker
    /// Programme analytics (issued, installed, removed, pushes, holder visits) from the store's
    /// daily counters, and the holder page's visits.
    public let analytics: AnalyticsService
    /// How long devices' calls after pushes take: the HTTP layer records them, the push worker's pace follows them.
    public let deviceCalls = DeviceCallMonitor()
    private let logger: Logger

    /// Makes the services over a database that ``start()`` opens: nothing here waits for the
    /// database, migrates it or imports templates. Pushes go through an APNs client per pass type made
    /// from `configuration.push`, unless `pushSenders` supplies the senders; a pass type without one
    /// keeps its pushes queued.
    public init(
        configuration: ServiceConfiguration, pushSenders: [String: any PushSender]? = nil,
        pushWorker pushConfiguration: PushWorkerConfiguration = PushWorkerConfiguration(),
        webhookWorker webhookConfiguration: WebhookWorkerConfiguration = WebhookWorkerConfiguration(),
        bulkJobWorker bulkConfiguration: BulkJobWorkerConfiguration = BulkJobWorkerConfiguration(), logger: Logger
    ) {
        self.configuration = configuration
        self.logger = logger
        database = DeferredDatabase(engine: configuration.database.engine)
        // Rung by every commit that queues pushes; the push worker sleeps on it when idle.
        let pushDoorbell = Doorbell()
        // Rung by every commit that queues webhook deliveries.
        let webhookDoorbell = Doorbell()
        store = WalletStore(
            database: database, logCapacity: configuration.deviceLogCapacity, pushesQueued: { pushDoorbell.ring() },
            webhooksQueued: { webhookDoorbell.ring() }, countsAnalytics: configuration.analytics)
        identities = IdentityDirectory(root: configuration.identitiesDirectory, passphrase: configuration.passphrase, passphraseHelp: configuration.passphraseHelp)
        templates = TemplateLibrary(store: store, identities: identities, webServiceURL: configuration.webServiceURL)
        passes = PassService(store: store, templates: templates, notifications: configuration.notifications, passCacheBytes: configuration.passCacheBytes)
        rollouts = RolloutWorker(passes: passes, logger: logger)
        templateVersions = TemplateService(store: store, library: templates, rollouts: rollouts)
        expiry = IdentityExpiry(identities: identities)
        orders = OrderService(
            store: store, identities: identities, webServiceURL: configuration.publicURL.lowercased().hasPrefix("https://") ? configuration.ordersWebServiceURL : nil)
        let senders = pushSenders ?? configuration.push.senders(
            for: Set((try? identities.passTypeIdentifiers()) ?? []), orderTypeIdentifiers: Set((try? identities.orderTypeIdentifiers()) ?? []),
            identities: identities, logger: logger)
        // Each slice of pushes goes out once the passes its devices will fetch are signed.
        let passService = passes
        self.pushWorker = PushWorker(
            store: store, senders: senders, configuration: pushConfiguration, doorbell: pushDoorbell, deviceCalls: deviceCalls,
            prepare: { await passService.signAhead($0) }, logger: logger)
        holds = HoldReleaser(passes: passes, logger: logger)
        previews = PreviewService(passes: passes, templates: templates)
        holderPages = HolderPages(passes: passes, previews: previews)
        consoleSessions = ConsoleSessions(store: store)
        consoleUsers = ConsoleUsers(store: store)
        links = DownloadLinks(key: configuration.downloadLinkKey, lifetime: configuration.downloadLinkLifetime)
        events = EventService(store: store, retention: configuration.eventRetention)
        audit = AuditService(store: store, retention: configuration.auditRetention)
        idempotency = IdempotencyService(store: store)
        webhooks = WebhookService(store: store, box: SecretBox(deriving: configuration.downloadLinkKey, purpose: "webhook secrets"))
        webhookWorker = WebhookWorker(store: store, webhooks: webhooks, configuration: webhookConfiguration, doorbell: webhookDoorbell, logger: logger)
        // Rung when this instance opens a job; other instances' openings arrive by NOTIFY.
        let bulkDoorbell = Doorbell()
        bulkJobs = BulkJobService(store: store, templates: templates, passes: passes, jobOpened: bulkDoorbell, retention: configuration.eventRetention)
        apiKeys = APIKeyService(store: store)
        analytics = AnalyticsService(store: store)
        bulkJobWorker = BulkJobWorker(store: store, templates: templates, configuration: bulkConfiguration, doorbell: bulkDoorbell, logger: logger)
    }

    /// Opens the database (waiting for it as `configuration.databaseStartup` says), migrates it,
    /// imports the template folders of `configuration.templatesDirectory` as new versions where their
    /// files changed, and warns of what will not work (unusable templates, readable keys, certificates
    /// near their end). The first step of running; the database is closed again if a later one fails.
    public func start() async throws {
        if let warning = configuration.publicURLWarning { logger.warning("public URL will not work for Wallet", ["reason": warning]) }
        database.open(try await configuration.databaseStartup.open(configuration.database, poolSize: configuration.databasePoolSize, logger: logger))
        do {
            try await store.migrate()
            try await importTemplateFolders()
            for (name, status) in try await templates.statuses().sorted(by: { $0.key < $1.key }) {
                if case .unavailable(let reason) = status.entry { logger.warning("template unavailable", ["template": name, "reason": reason]) }
            }
        } catch {
            await close()
            throw error
        }
        for file in identities.looseKeyPermissions() {
            logger.warning("private key readable by others; chmod 600 it", ["file": file.path])
        }
        for (passType, when) in expiry.renewalsDue(now: Date()).sorted(by: { $0.key < $1.key }) {
            logger.warning("signing certificate needs renewal", ["passType": passType, "certificate": when])
        }
    }

    /// Imports the template folders again (at start and on `SIGHUP`): each folder whose files changed
    /// becomes a new version, rolled out to its passes; a folder with lint errors is refused and its
    /// stored version stays current. Order template folders (`orders/<name>`) likewise become new
    /// versions, which the orders created from then on are made from.
    public func importTemplateFolders() async throws {
        guard let directory = configuration.templatesDirectory else { return }
        _ = try await templateVersions.importFolders(in: directory, logger: logger)
        try await orders.importFolders(in: directory, logger: logger)
    }

    /// What `/readyz` answers from: whether the database answers, each template's reason for being
    /// unusable (read only when the database answers), stopped push identities and certificates near
    /// their end (those still sign: degraded, named, so someone renews them in time).
    public func readiness() async -> Readiness {
        // Pings, and after a full disk writes a probe: a failure stays until the database proves otherwise.
        let failure = await database.probeOpened()
        let databaseAnswers = failure?.kind != .unavailable
        let statuses = databaseAnswers ? ((try? await templates.statuses()) ?? [:]) : [:]
        var reasons = statuses.mapValues { status -> String? in
            if case .unavailable(let reason) = status.entry { return reason }
            return nil
        }
        if databaseAnswers { reasons.merge((try? await orders.statuses()) ?? [:]) { pass, _ in pass } }
        let storage = failure.map { StorageTrouble(kind: $0.kind == .full ? .full : .unavailable, reason: $0.reason) }
        return Readiness(
            databaseAnswers: databaseAnswers, storage: storage, templates: reasons, stoppedPushIdentities: pushWorker.stoppedIdentities,
            identitiesNeedingRenewal: expiry.renewalsDue(now: passes.now()),
            disabledWebhooks: databaseAnswers ? ((try? await webhooks.disabled()) ?? [:]) : [:])
    }

    /// How many templates have a current version (the start-up log).
    public func templateCount() async -> Int {
        (try? await store.currentTemplateVersions().count) ?? 0
    }

    /// Runs the background workers (roll-outs, holds and, when it has senders, pushes) until the
    /// surrounding task is cancelled.
    public func runWorkers() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.rollouts.run() }
            group.addTask { await self.holds.run() }
            group.addTask { await RetentionWorker(events: self.events, audit: self.audit, passes: self.passes, orders: self.orders, idempotency: self.idempotency, bulkJobs: self.bulkJobs, analytics: self.analytics, settings: self.configuration.retention, logger: self.logger).run() }
            group.addTask { await self.webhookWorker.run() }
            group.addTask { await self.bulkJobWorker.run() }
            if pushWorker.hasSenders {
                group.addTask { await self.pushWorker.run() }
            } else {
                logger.warning("push refresh is off (no APNs identities); updates queue in the outbox until it is on")
            }
        }
    }

    /// Closes the database: the last step of stopping, once the server and the workers are done.
    public func close() async {
        await database.close()
    }
}
