import Logging
import Foundation
import HTTPServer

/// One structured log line per request: method, route pattern, status and duration. The raw path is
/// never logged: it carries device library identifiers (a device's secret for listing its passes) and
/// serial numbers; headers are never logged either (they carry tokens).
struct AccessLogMiddleware: HTTPMiddleware {
    let logger: Logger

    func respond(to request: HTTPRequest, context: RequestContext, next: (HTTPRequest) async -> HTTPResponse) async -> HTTPResponse {
        let start = ContinuousClock.now
        let response = await next(request)
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        logger.info("request", [
            "method": request.method.rawValue,
            "route": context.routeName,
            "status": String(response.status.code),
            "ms": String(format: "%.2f", milliseconds),
        ])
        return response
    }
}
