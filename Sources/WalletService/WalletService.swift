import PasswrightLogging
import Foundation
import HTTPServer
import Signing
import Storage
import WalletStore

/// A running Passwright web service: the REST issuing API, the Wallet web service protocol, holder
/// download links and the operations endpoints, on one HTTP server over one store.
///
/// Instances keep no state of their own beyond caches, so several can share one PostgreSQL database
/// behind a load balancer.
public final class WalletService: Sendable {
    /// The configuration it runs with.
    public let configuration: ServiceConfiguration
    /// The persistent state.
    public let store: WalletStore
    /// The templates it issues and renders from, as versions in the store.
    public let templates: TemplateLibrary
    /// Carries a new template version to every pass of the template.
    public let rollouts: RolloutWorker
    /// Writes held notifying changes when they fall due.
    public let holds: HoldReleaser
    private let templateService: TemplateService
    /// Drains the push outbox while the service runs.
    public let pushWorker: PushWorker
    private let database: any Database
    private let server: HTTPServer
    private let router: Router
    private let logger: Logger

    /// Opens the database (migrating it), imports the template folders of
    /// `configuration.templatesDirectory` as new versions where their files changed, and binds the
    /// HTTP server; call ``run()`` to serve. Pushes go through an APNs client per pass type made from
    /// `configuration.push`, unless `pushSenders` supplies the senders; a pass type without one keeps
    /// its pushes queued.
    public init(
        configuration: ServiceConfiguration, pushSenders: [String: any PushSender]? = nil,
        pushWorker pushConfiguration: PushWorkerConfiguration = PushWorkerConfiguration(),
        logger: Logger = Logger(label: "passwright")
    ) async throws {
        self.configuration = configuration
        self.logger = logger
        if let warning = configuration.publicURLWarning { logger.warning("public URL will not work for Wallet", ["reason": warning]) }
        database = try await configuration.databaseStartup.open(configuration.database, poolSize: configuration.databasePoolSize, logger: logger)
        // Rung by every commit that queues pushes; the push worker sleeps on it when idle.
        let pushDoorbell = Doorbell()
        store = WalletStore(database: database, logCapacity: configuration.deviceLogCapacity, pushesQueued: { pushDoorbell.ring() })
        try await store.migrate()
        let identities = IdentityDirectory(root: configuration.identitiesDirectory, passphrase: configuration.passphrase, passphraseHelp: configuration.passphraseHelp)
        templates = TemplateLibrary(store: store, identities: identities, webServiceURL: configuration.webServiceURL)
        let service = PassService(store: store, templates: templates, notifications: configuration.notifications)
        rollouts = RolloutWorker(passes: service, logger: logger)
        templateService = TemplateService(store: store, library: templates, rollouts: rollouts)
        do {
            if let directory = configuration.templatesDirectory {
                _ = try await templateService.importFolders(in: directory, logger: logger)
            }
            for (name, status) in try await templates.statuses().sorted(by: { $0.key < $1.key }) {
                if case .unavailable(let reason) = status.entry { logger.warning("template unavailable", ["template": name, "reason": reason]) }
            }
        } catch {
            await database.close()
            throw error
        }
        for file in identities.looseKeyPermissions() {
            logger.warning("private key readable by others; chmod 600 it", ["file": file.path])
        }
        let expiry = IdentityExpiry(identities: identities)
        for (passType, when) in expiry.renewalsDue(now: Date()).sorted(by: { $0.key < $1.key }) {
            logger.warning("signing certificate needs renewal", ["passType": passType, "certificate": when])
        }

        let senders = pushSenders ?? configuration.push.senders(
            for: Set((try? identities.passTypeIdentifiers()) ?? []), identities: identities, logger: logger)
        pushWorker = PushWorker(store: store, senders: senders, configuration: pushConfiguration, doorbell: pushDoorbell, logger: logger)
        let metrics = ServiceMetrics()
        holds = HoldReleaser(passes: service, logger: logger)
        var router = Router(logger: logger, errors: ProblemResponses.response(for:context:))
        router.add(middleware: MetricsMiddleware(metrics: metrics))
        router.add(middleware: AccessLogMiddleware(logger: logger))
        router.add(WalletProtocolRoutes(service: service, metrics: metrics).group)
        let issuing = IssuingRoutes(
            service: service, links: DownloadLinks(key: configuration.downloadLinkKey, lifetime: configuration.downloadLinkLifetime),
            publicURL: configuration.publicURL, metrics: metrics
        )
        router.add(issuing.group(adminToken: configuration.adminToken))
        router.add(issuing.downloads)
        router.add(TemplateRoutes(templates: templateService, metrics: metrics).group(adminToken: configuration.adminToken))
        router.add(PushRoutes(service: service, worker: pushWorker).group(adminToken: configuration.adminToken))
        // One preview cache for the API and the console.
        let previews = PreviewService(passes: service, templates: templates)
        router.add(PreviewRoutes(previews: previews, metrics: metrics).group(adminToken: configuration.adminToken))
        if configuration.console {
            let auth = ConsoleAuth(store: store, adminToken: configuration.adminToken,
                                   secureCookies: configuration.publicURL.lowercased().hasPrefix("https://"), now: { service.now() })
            router.add(ConsoleRoutes(
                auth: auth, passes: service, templates: templateService, previews: previews, pushWorker: pushWorker, expiry: expiry,
                assets: try ConsoleAssets.load()
            ).group)
        }
        let document = OpenAPIDocument()
        router.add(OperationsRoutes(
            database: database, service: service, metrics: metrics, templates: templates, pushWorker: pushWorker, expiry: expiry,
            document: document
        ).group)
        try document.describe(router)
        self.router = router
        server = HTTPServer(configuration: configuration.http, responder: router, logger: logger)
        do {
            try server.start()
        } catch {
            await database.close()
            throw error
        }
    }

    /// Answers one request in-process, through the same routes and middleware as the socket but
    /// without it: how the fuzz targets drive every handler thousands of times a second.
    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        await router.respond(to: request)
    }

    /// Every route the service answers, in the order they are tried: what `/openapi.json` describes.
    public var routes: [Route] { router.routes }

    /// Imports the template folders again (`SIGHUP`): each folder whose files changed becomes a new
    /// version, rolled out to its passes; a folder with lint errors is refused and its stored version
    /// stays current.
    public func importTemplateFolders() async throws {
        guard let directory = configuration.templatesDirectory else { return }
        _ = try await templateService.importFolders(in: directory, logger: logger)
    }

    /// The bound port (useful with port 0).
    public var port: Int? { server.port }

    /// Serves and pushes until the surrounding task is cancelled, then drains in-flight requests,
    /// stops the push worker and closes the database.
    public func run() async throws {
        let templates = (try? await store.currentTemplateVersions().count) ?? 0
        logger.info("serving", ["address": "\(configuration.http.hostname):\(port ?? configuration.http.port)", "database": "\(configuration.database)", "templates": String(templates)])
        defer { logger.info("stopped") }
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await self.server.run() }
                group.addTask { await self.rollouts.run() }
                group.addTask { await self.holds.run() }
                if self.pushWorker.hasSenders {
                    group.addTask { await self.pushWorker.run() }
                } else {
                    self.logger.warning("push refresh is off (no APNs identities); updates queue in the outbox until it is on")
                }
                try await group.next()
                group.cancelAll()
                try await group.waitForAll()
            }
        } catch {
            await database.close()
            throw error
        }
        await database.close()
    }
}
