import Foundation
import HTTPServer
import PasswrightLogging
import WalletCore

/// A running Passwright web service: the REST issuing API, the Wallet web service protocol, holder
/// download links and the operations endpoints, on one HTTP server over ``WalletServices``.
///
/// Making one builds the routes and touches neither the database nor the socket; ``run()`` starts
/// everything and stops it in order. Instances keep no state of their own beyond caches, so several
/// can share one PostgreSQL database behind a load balancer.
public final class WalletService: Sendable {
    /// The configuration it runs with.
    public var configuration: ServiceConfiguration { services.configuration }
    /// The services the routes call.
    public let services: WalletServices
    /// Listening address, limits and timeouts.
    public let http: HTTPServerConfiguration
    private let server: HTTPServer
    private let router: Router
    private let listening = Listening()
    private let logger: Logger

    /// Makes the services (see ``WalletServices/init(configuration:pushSenders:pushWorker:webhookWorker:logger:)``)
    /// and the routes over them; call ``run()`` to open the database and serve. Throws only when the
    /// routes cannot be described (a bundled resource is missing).
    public init(
        configuration: ServiceConfiguration, http: HTTPServerConfiguration = HTTPServerConfiguration(),
        pushSenders: [String: any PushSender]? = nil, pushWorker pushConfiguration: PushWorkerConfiguration = PushWorkerConfiguration(),
        webhookWorker webhookConfiguration: WebhookWorkerConfiguration = WebhookWorkerConfiguration(),
        bulkJobWorker bulkConfiguration: BulkJobWorkerConfiguration = BulkJobWorkerConfiguration(),
        logger: Logger = Logger(label: "passwright")
    ) throws {
        self.logger = logger
        self.http = http
        let services = WalletServices(
            configuration: configuration, pushSenders: pushSenders, pushWorker: pushConfiguration, webhookWorker: webhookConfiguration,
            bulkJobWorker: bulkConfiguration, logger: logger)
        self.services = services
        router = try Self.router(services: services, logger: logger)
        server = HTTPServer(configuration: http, responder: router, logger: logger)
    }

    /// Every route over `services`, with the metrics and access-log middleware, described by the
    /// OpenAPI document it serves.
    private static func router(services: WalletServices, logger: Logger) throws -> Router {
        let configuration = services.configuration
        let metrics = ServiceMetrics()
        let service = services.passes
        var router = Router(logger: logger, errors: ProblemResponses.response(for:context:))
        router.add(middleware: MetricsMiddleware(metrics: metrics, deviceCalls: services.deviceCalls))
        router.add(middleware: AccessLogMiddleware(logger: logger))
        router.add(WalletProtocolRoutes(service: service, metrics: metrics).group)
        router.add(OrdersProtocolRoutes(orders: services.orders, passes: service).group)
        let auth = APIAuth(keys: services.apiKeys, adminToken: configuration.adminToken, passes: service, orders: services.orders, jobs: services.bulkJobs)
        let issuing = IssuingRoutes(
            service: service, links: services.links, publicURL: configuration.publicURL, metrics: metrics,
            idempotent: Idempotent(service: services.idempotency))
        router.add(issuing.group(auth: auth))
        let holder = HolderRoutes(
            pages: services.holderPages, analytics: services.analytics, links: services.links, publicURL: configuration.publicURL,
            assets: try HolderAssets.load(badgesDirectory: configuration.walletBadgesDirectory), now: { service.now() })
        router.add(holder.group)
        router.add(holder.group(auth: auth))
        router.add(DataRightsRoutes(service: service, orders: services.orders).group(auth: auth))
        router.add(TemplateRoutes(templates: services.templateVersions, metrics: metrics).group(auth: auth))
        router.add(PushRoutes(service: service, worker: services.pushWorker).group(auth: auth))
        router.add(PreviewRoutes(previews: services.previews, metrics: metrics).group(auth: auth))
        router.add(EventRoutes(events: services.events).group(auth: auth))
        router.add(AuditRoutes(audit: services.audit).group(auth: auth))
        router.add(AnalyticsRoutes(analytics: services.analytics).group(auth: auth))
        router.add(WebhookRoutes(webhooks: services.webhooks).group(auth: auth))
        let bulk = BulkJobRoutes(
            jobs: services.bulkJobs, links: services.links, publicURL: configuration.publicURL, idempotent: Idempotent(service: services.idempotency))
        router.add(bulk.group(auth: auth))
        router.add(KeyRoutes(keys: services.apiKeys).group(auth: auth))
        router.add(OrderRoutes(orders: services.orders, idempotent: Idempotent(service: services.idempotency)).group(auth: auth))
        router.add(OrderTemplateRoutes(orders: services.orders).group(auth: auth))
        if configuration.console {
            let auth = ConsoleAuth(sessions: services.consoleSessions, users: services.consoleUsers, adminToken: configuration.adminToken,
                                   secureCookies: configuration.publicURL.lowercased().hasPrefix("https://"), now: { service.now() })
            router.add(ConsoleRoutes(
                auth: auth, passes: service, orders: services.orders, templates: services.templateVersions, previews: services.previews, pushWorker: services.pushWorker,
                expiry: services.expiry, webhooks: services.webhooks, bulkJobs: services.bulkJobs, apiKeys: services.apiKeys, audit: services.audit, analytics: services.analytics, users: services.consoleUsers, publicURL: configuration.publicURL, bulk: bulk, assets: try ConsoleAssets.load()
            ).group)
        }
        let document = OpenAPIDocument()
        router.add(OperationsRoutes(
            services: services, metrics: metrics, document: document
        ).group)
        try document.describe(router)
        return router
    }

    /// Answers one request in-process, through the same routes and middleware as the socket but
    /// without it: how the fuzz targets drive every handler thousands of times a second. The service
    /// must be running (``waitUntilListening()`` returned), or the handlers find no database.
    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        await router.respond(to: request)
    }

    /// Every route the service answers, in the order they are tried: what `/openapi.json` describes.
    public var routes: [Route] { router.routes }

    /// Imports the template folders again (`SIGHUP`); see ``WalletServices/importTemplateFolders()``.
    public func importTemplateFolders() async throws {
        try await services.importTemplateFolders()
    }

    /// The bound port once ``run()`` is listening (useful with port 0), `nil` before.
    public var port: Int? { server.port }

    /// Waits until ``run()`` listens and returns the bound port; throws start-up's error when it
    /// failed (the database never answered, a migration failed, the port was taken).
    public func waitUntilListening() async throws -> Int {
        try await listening.port()
    }

    /// Runs the service until the surrounding task is cancelled: opens the database (retrying as
    /// configured), migrates it and imports the template folders, binds the server, then serves and
    /// runs the workers (roll-outs, holds, pushes) side by side. Cancelled, it stops in order: the
    /// server drains in-flight requests, then the workers stop, then the database closes.
    public func run() async throws {
        do {
            try await services.start()
            do {
                try server.start()
            } catch {
                await services.close()
                throw error
            }
        } catch {
            listening.settle(.failure(error))
            throw error
        }
        let bound = port ?? http.port
        listening.settle(.success(bound))
        let templates = await services.templateCount()
        logger.info("serving", ["address": "\(http.hostname):\(bound)", "database": "\(configuration.database)", "templates": String(templates)])
        defer { logger.info("stopped") }
        let failure: (any Error)? = await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.services.runWorkers() }
            // The server first: it returns once cancelled and drained, and only then do the workers stop.
            var failure: (any Error)?
            do { try await self.server.run() } catch { failure = error }
            group.cancelAll()
            await group.waitForAll()
            return failure
        }
        await services.close()
        if let failure { throw failure }
    }
}
