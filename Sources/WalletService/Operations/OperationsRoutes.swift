import Foundation
import HTTPServer
import Storage
import WalletStore

/// What operators and load balancers call: liveness, readiness (the database answers), Prometheus
/// metrics and the OpenAPI description of the REST API.
struct OperationsRoutes {
    let database: any Database
    let store: WalletStore
    let metrics: ServiceMetrics
    let catalog: TemplateCatalog

    func register(in table: inout RouteTable) {
        table.add(.get, "/healthz") { _ in
            .json(Data(#"{"status":"ok"}"#.utf8))
        }
        table.add(.get, "/readyz") { _ in
            do {
                try await database.ping()
                return .json(Data(#"{"status":"ready","database":"ok"}"#.utf8))
            } catch {
                return .problem(status: .serviceUnavailable, detail: "the database does not answer")
            }
        }
        table.add(.get, "/metrics") { _ in
            let outbox = try? await store.outboxStats()
            let ready = catalog.entries.values.filter { if case .ready = $0 { true } else { false } }.count
            let gauges: [(name: String, help: String, value: Double)] = [
                ("passwright_templates_ready", "Templates that can issue passes.", Double(ready)),
                ("passwright_templates_unavailable", "Templates that cannot issue passes (see /api/v1/templates).", Double(catalog.entries.count - ready)),
                ("passwright_push_queued", "Pushes waiting in the outbox.", Double(outbox?.queued ?? 0)),
            ]
            var response = HTTPResponse.bytes(Data(metrics.render(gauges: gauges).utf8), contentType: "text/plain; version=0.0.4; charset=utf-8")
            response.headers["Cache-Control"] = "no-store"
            return response
        }
        table.add(.get, "/openapi.json") { _ in
            .json(OpenAPIDocument.json)
        }
    }
}
