import Locking
import Foundation
import HTTPServer
import WalletCore

/// Counters and a latency histogram for `/metrics`, in Prometheus text format. Requests are labelled
/// by route pattern (never the raw path, which carries device identifiers and serial numbers).
public final class ServiceMetrics: Sendable {
    static let buckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

    private struct RequestKey: Hashable {
        let route: String
        let method: String
        let status: Int
    }

    private struct Histogram {
        var counts = [Int](repeating: 0, count: ServiceMetrics.buckets.count)
        var sum = 0.0
        var count = 0
    }

    private struct State {
        var requests: [RequestKey: Int] = [:]
        var latency: [String: Histogram] = [:]
        var passesIssued = 0
        var passesUpdated = 0
        var registrations = 0
        var previewsDrawn = 0
        var previewCacheHits = 0
    }

    private let state = Locked(State())

    init() {}

    func recordRequest(route: String, method: String, status: Int, seconds: Double) {
        state.withLock { state in
            state.requests[RequestKey(route: route, method: method, status: status), default: 0] += 1
            var histogram = state.latency[route] ?? Histogram()
            for (index, bound) in Self.buckets.enumerated() where seconds <= bound { histogram.counts[index] += 1 }
            histogram.sum += seconds
            histogram.count += 1
            state.latency[route] = histogram
        }
    }

    func passIssued() { state.withLock { $0.passesIssued += 1 } }
    func passUpdated(_ count: Int = 1) { state.withLock { $0.passesUpdated += count } }
    func deviceRegistered() { state.withLock { $0.registrations += 1 } }
    /// A preview answered: drawn now, or (`cached`) taken from the preview cache.
    func previewServed(cached: Bool) {
        state.withLock { cached ? ($0.previewCacheHits += 1) : ($0.previewsDrawn += 1) }
    }

    /// Escapes a Prometheus label value.
    static func escapeLabel(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: " ")
    }

    /// The Prometheus exposition text; `gauges` are read at scrape time (e.g. from the store).
    func render(gauges: [(name: String, help: String, value: Double)]) -> String {
        let snapshot = state.withLock { $0 }
        var text = "# HELP passwright_http_requests_total HTTP requests by route, method and status.\n# TYPE passwright_http_requests_total counter\n"
        for (key, count) in snapshot.requests.sorted(by: { ($0.key.route, $0.key.method, $0.key.status) < ($1.key.route, $1.key.method, $1.key.status) }) {
            text += "passwright_http_requests_total{route=\"\(key.route)\",method=\"\(key.method)\",status=\"\(key.status)\"} \(count)\n"
        }
        text += "# HELP passwright_http_request_duration_seconds Time to answer a request, by route.\n# TYPE passwright_http_request_duration_seconds histogram\n"
        for (route, histogram) in snapshot.latency.sorted(by: { $0.key < $1.key }) {
            for (index, bound) in Self.buckets.enumerated() {
                text += "passwright_http_request_duration_seconds_bucket{route=\"\(route)\",le=\"\(bound)\"} \(histogram.counts[index])\n"
            }
            text += "passwright_http_request_duration_seconds_bucket{route=\"\(route)\",le=\"+Inf\"} \(histogram.count)\n"
            text += "passwright_http_request_duration_seconds_sum{route=\"\(route)\"} \(histogram.sum)\n"
            text += "passwright_http_request_duration_seconds_count{route=\"\(route)\"} \(histogram.count)\n"
        }
        func counter(_ name: String, _ help: String, _ value: Int) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) counter\n\(name) \(value)\n"
        }
        counter("passwright_passes_issued_total", "Passes issued through the API.", snapshot.passesIssued)
        counter("passwright_passes_updated_total", "Pass updates that changed a pass.", snapshot.passesUpdated)
        counter("passwright_device_registrations_total", "New device registrations.", snapshot.registrations)
        counter("passwright_previews_drawn_total", "Pass and template previews drawn.", snapshot.previewsDrawn)
        counter("passwright_preview_cache_hits_total", "Pass previews answered from the preview cache.", snapshot.previewCacheHits)
        var described = Set<String>()
        for gauge in gauges {
            // A gauge name may carry labels (`name{reason="…"}`); HELP and TYPE name the metric once.
            let base = String(gauge.name.prefix { $0 != "{" })
            if described.insert(base).inserted { text += "# HELP \(base) \(gauge.help)\n# TYPE \(base) gauge\n" }
            text += "\(gauge.name) \(gauge.value)\n"
        }
        return text
    }
}

/// Times every request and counts it by route, method and status; the calls a device makes after a
/// push also go to `deviceCalls`, whose answer times the push pace follows.
struct MetricsMiddleware: HTTPMiddleware {
    let metrics: ServiceMetrics
    let deviceCalls: DeviceCallMonitor

    /// The operations Wallet calls when a push wakes it: the changed serials or orders, then each one.
    static let callsAfterPush: Set<String> = ["updatedSerials", "latestPass", "updatedOrders", "latestOrder"]

    func respond(to request: HTTPRequest, context: RequestContext, next: (HTTPRequest) async -> HTTPResponse) async -> HTTPResponse {
        let start = ContinuousClock.now
        let response = await next(request)
        let elapsed = ContinuousClock.now - start
        let seconds = elapsed / .seconds(1)
        metrics.recordRequest(route: context.routeName, method: request.method.rawValue, status: response.status.code, seconds: seconds)
        if let operation = context.route?.operationID, Self.callsAfterPush.contains(operation) { deviceCalls.record(elapsed) }
        return response
    }
}
