import Foundation
import HTTPServer
import PasswrightLogging
import WalletCore

/// A running Passwright web service: the REST issuing API, the Wallet web service protocol, holder
/// download links and the operations endpoints, on one HTTP server over ``WalletServices``.
///
/// Instances keep no state of their own beyond caches, so several can share one PostgreSQL database
/// behind a load balancer.
public final class WalletService: Sendable {
    /// The configuration it runs with.
    public var configuration: ServiceConfiguration { services.configuration }
    /// The services the routes call.
    public let services: WalletServices
    private let server: HTTPServer
    private let router: Router
    private let logger: Logger

    /// Makes the services (see ``WalletServices/init(configuration:pushSenders:pushWorker:logger:)``)
    /// and binds the HTTP server; call ``run()`` to serve.
    public init(
        configuration: ServiceConfiguration, pushSenders: [String: any PushSender]? = nil,
        pushWorker pushConfiguration: PushWorkerConfiguration = PushWorkerConfiguration(),
        logger: Logger = Logger(label: "passwright")
    ) async throws {
        self.logger = logger
        let services = try await WalletServices(configuration: configuration, pushSenders: pushSenders, pushWorker: pushConfiguration, logger: logger)
        self.services = services
        router = try Self.router(services: services, logger: logger)
        server = HTTPServer(configuration: configuration.http, responder: router, logger: logger)
        do {
            try server.start()
        } catch {
            await services.close()
            throw error
        }
    }

    /// Every route over `services`, with the metrics and access-log middleware, described by the
    /// OpenAPI document it serves.
    private static func router(services: WalletServices, logger: Logger) throws -> Router {
        let configuration = services.configuration
        let metrics = ServiceMetrics()
        let service = services.passes
        var router = Router(logger: logger, errors: ProblemResponses.response(for:context:))
        router.add(middleware: MetricsMiddleware(metrics: metrics))
        router.add(middleware: AccessLogMiddleware(logger: logger))
        router.add(WalletProtocolRoutes(service: service, metrics: metrics).group)
        let issuing = IssuingRoutes(service: service, links: services.links, publicURL: configuration.publicURL, metrics: metrics)
        router.add(issuing.group(adminToken: configuration.adminToken))
        router.add(issuing.downloads)
        router.add(TemplateRoutes(templates: services.templateVersions, metrics: metrics).group(adminToken: configuration.adminToken))
        router.add(PushRoutes(service: service, worker: services.pushWorker).group(adminToken: configuration.adminToken))
        router.add(PreviewRoutes(previews: services.previews, metrics: metrics).group(adminToken: configuration.adminToken))
        if configuration.console {
            let auth = ConsoleAuth(sessions: services.consoleSessions, adminToken: configuration.adminToken,
                                   secureCookies: configuration.publicURL.lowercased().hasPrefix("https://"), now: { service.now() })
            router.add(ConsoleRoutes(
                auth: auth, passes: service, templates: services.templateVersions, previews: services.previews, pushWorker: services.pushWorker,
                expiry: services.expiry, assets: try ConsoleAssets.load()
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
    /// without it: how the fuzz targets drive every handler thousands of times a second.
    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        await router.respond(to: request)
    }

    /// Every route the service answers, in the order they are tried: what `/openapi.json` describes.
    public var routes: [Route] { router.routes }

    /// Imports the template folders again (`SIGHUP`); see ``WalletServices/importTemplateFolders()``.
    public func importTemplateFolders() async throws {
        try await services.importTemplateFolders()
    }

    /// The bound port (useful with port 0).
    public var port: Int? { server.port }

    /// Serves and pushes until the surrounding task is cancelled, then drains in-flight requests,
    /// stops the workers and closes the database.
    public func run() async throws {
        let templates = await services.templateCount()
        logger.info("serving", ["address": "\(configuration.http.hostname):\(port ?? configuration.http.port)", "database": "\(configuration.database)", "templates": String(templates)])
        defer { logger.info("stopped") }
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await self.server.run() }
                group.addTask { await self.services.runWorkers() }
                try await group.next()
                group.cancelAll()
                try await group.waitForAll()
            }
        } catch {
            await services.close()
            throw error
        }
        await services.close()
    }
}
