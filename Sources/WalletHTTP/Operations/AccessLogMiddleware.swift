import PasswrightLogging
import Foundation
import HTTPServer
import WalletCore

/// One structured log line per request: method, route pattern, status and duration. The raw path is
/// never logged: it carries device library identifiers (a device's secret for listing its passes) and
/// serial numbers; headers are never logged either (they carry tokens).
struct AccessLogMiddleware: HTTPMiddleware {
    let logger: Logger

    func respond(to request: HTTPRequest, context: RequestContext, next: (HTTPRequest) async -> HTTPResponse) async -> HTTPResponse {
        let start = ContinuousClock.now
        let response = await next(request)
        let elapsed = ContinuousClock.now - start
        logger.info("request", [
            "method": request.method.rawValue,
            "route": context.routeName,
            "status": String(response.status.code),
            "ms": Self.milliseconds(elapsed),
        ])
        return response
    }

    /// `elapsed` in milliseconds with two decimals ("12.05"), without `String(format:)`, which was
    /// a few percent of a request's CPU.
    static func milliseconds(_ elapsed: Duration) -> String {
        let hundredths = elapsed.components.seconds * 100_000 + elapsed.components.attoseconds / 10_000_000_000_000
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
