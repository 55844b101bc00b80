import Foundation
import HTTPServer
import PassModel
import WalletCore

/// What operators and load balancers call: liveness, readiness (the database answers), Prometheus
/// metrics and the OpenAPI description of the REST API.
struct OperationsRoutes {
    /// What readiness and the gauges are read from.
    let services: WalletServices
    let metrics: ServiceMetrics
    /// The OpenAPI document, generated once the router holds every route (this one included).
    let document: OpenAPIDocument

    /// The operations routes, open to load balancers and scrapers.
    var group: RouteGroup {
        let (services, service, templates, pushWorker, expiry) = (services, services.passes, services.templates, services.pushWorker, services.expiry)
        var group = RouteGroup()
        group.add(Route(.get, "/healthz", operationID: "health", summary: "Liveness", responses: [.json(.ok, "Alive", schema: "Health")]) { _, _ in
            .json(Data(#"{"status":"ok"}"#.utf8))
        })
        group.add(Route(
            .get, "/readyz", operationID: "ready", summary: "Readiness: the database answers and a template can issue passes",
            responses: [.json(.ok, "Ready (status ready), or serving with some templates unusable or pushes stopped for some identities (status degraded)", schema: "Readiness"), .problem(.serviceUnavailable, "Not ready: the database does not answer or is full, or no template can issue passes")]
        ) { _, _ in
            await services.readiness().response
        })
        group.add(Route(
            .get, "/metrics", operationID: "metrics", summary: "Prometheus metrics",
            responses: [RouteResponse(.ok, "Prometheus text", body: RouteBody("text/plain", schema: "PrometheusText"))]
        ) { _, _ in
            let outbox = try? await service.outboxStats()
            let statuses = (try? await templates.statuses()) ?? [:]
            let ready = statuses.values.filter { $0.entry.compiler != nil }.count
            let counters = pushWorker.counters
            let archives = service.passCacheStatistics
            var gauges: [(name: String, help: String, value: Double)] = [
                ("passwright_templates_ready", "Templates that can issue passes.", Double(ready)),
                ("passwright_templates_unavailable", "Templates that cannot issue passes (see /api/v1/templates).", Double(statuses.count - ready)),
                ("passwright_push_queued", "Pushes waiting in the outbox.", Double(outbox?.queued ?? 0)),
                ("passwright_push_oldest_pending_seconds", "Age of the oldest waiting push.", outbox?.oldestPendingAge.map { Double($0.components.seconds) } ?? 0),
                ("passwright_pushes_sent", "Pushes APNs accepted since start.", Double(counters.sent)),
                ("passwright_push_pace", "Pushes per second the worker allows now: serve's --push-rate, less while devices' calls are slow (0: unlimited).", pushWorker.pace ?? 0),
                ("passwright_device_call_p90_seconds", "90th percentile of the last second's device calls after pushes (list serials, fetch), 0 when none.", services.deviceCalls.recentP90 ?? 0),
                ("passwright_push_identities_stopped", "Pass types whose APNs identity was refused (403).", Double(counters.stoppedIdentities.count)),
                ("passwright_pass_cache_hits", "Pass downloads answered with an archive signed before, since start.", Double(archives.hits)),
                ("passwright_pass_cache_misses", "Pass downloads that built and signed the pass, since start.", Double(archives.misses)),
                ("passwright_pass_cache_bytes", "Bytes of signed passes held in memory (at most serve's --pass-cache).", Double(archives.bytes)),
            ]
            for (passType, seconds) in expiry.secondsUntilExpiry(now: Date()) {
                gauges.append(("passwright_identity_expiry_seconds{identity=\"\(ServiceMetrics.escapeLabel(passType))\"}",
                               "Seconds until the pass type's signing certificate expires (negative: expired).", seconds))
            }
            // From the analytics counters: one aggregate over a table of days × templates × metrics, not a count of passes.
            if let totals = try? await services.analytics.currentTotals() {
                gauges.append(("passwright_active_passes", "Passes on at least one device.", Double(totals.activePasses.values.reduce(0, +))))
                for (template, count) in totals.activePasses.sorted(by: { $0.key < $1.key }) {
                    gauges.append(("passwright_active_passes{template=\"\(ServiceMetrics.escapeLabel(template))\"}", "Passes on at least one device.", Double(count)))
                }
                gauges.append(("passwright_registered_devices", "Device registrations (a device with two passes counts twice).", Double(totals.devices.values.reduce(0, +))))
            }
            for (reason, count) in counters.failures.sorted(by: { $0.key < $1.key }) {
                gauges.append(("passwright_push_failures{reason=\"\(ServiceMetrics.escapeLabel(reason))\"}", "Push failures by APNs reason since start.", Double(count)))
            }
            var response = HTTPResponse.bytes(Data(metrics.render(gauges: gauges).utf8), contentType: "text/plain; version=0.0.4; charset=utf-8")
            response.headers["Cache-Control"] = "no-store"
            return response
        })
        group.add(Route(
            .get, "/openapi.json", operationID: "openapi", summary: "This document",
            responses: [.json(.ok, "OpenAPI 3.1", schema: "OpenAPIDocument")]
        ) { _, _ in
            .json(document.json)
        })
        return group
    }
}
