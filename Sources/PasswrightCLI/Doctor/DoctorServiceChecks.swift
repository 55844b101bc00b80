import Foundation
import HTTPClient

/// The server's own health, and whether Wallet's calls reach it under `/wallet/`.
struct DoctorServiceChecks: Sendable {
    let http: DoctorHTTP

    func run() async -> [DoctorFinding] {
        [await health("/healthz"), await health("/readyz"), await walletPrefix()]
    }

    private func health(_ path: String) async -> DoctorFinding {
        let check = String(path.dropFirst())
        switch await http.send("GET", path) {
        case .success(let response) where response.status == 200:
            return .pass(check, "200")
        case .success(let response):
            return DoctorFinding(
                check: check, result: .fail, detail: "\(response.status): \(response.problemDetail)",
                fix: path == "/readyz" ? "Fix what it names (the database, a template, an identity); the server's log says more" : "Check that this URL reaches passwright (not another service)",
                effect: "The server can issue and update passes.")
        case .failure(let error):
            return DoctorFinding(check: check, result: .fail, detail: error.description,
                                 fix: "Check that passwright runs behind this URL", effect: "The server can issue and update passes.")
        }
    }

    /// Wallet calls `<webServiceURL>/v1/…`, and passes carry `<public URL>/wallet/`: a reverse proxy
    /// that strips the prefix (nginx `proxy_pass http://app/;` with a trailing slash) makes every one
    /// of those calls a 404. The one call that needs no token answers 204 for a device with no passes.
    private func walletPrefix() async -> DoctorFinding {
        let device = "doctor" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let path = "/wallet/v1/devices/\(device)/registrations/pass.dev.passwright.doctor"
        switch await http.send("GET", path) {
        case .success(let response) where response.status == 204 || response.status == 200:
            return .pass("wallet.path", "GET /wallet/v1/devices/…/registrations/… answered \(response.status)")
        case .success(let response):
            return DoctorFinding(
                check: "wallet.path", result: .fail,
                detail: "GET /wallet/v1/devices/…/registrations/… answered \(response.status), not 204",
                fix: "Pass /wallet/ to passwright unchanged: nginx `location /wallet/ { proxy_pass http://127.0.0.1:8080; }` (no path after the port)",
                effect: "Wallet's registrations and updates reach the server; today every one gets \(response.status).")
        case .failure(let error):
            return DoctorFinding(check: "wallet.path", result: .fail, detail: error.description,
                                 fix: "Pass /wallet/ to passwright", effect: "Wallet's calls reach the server.")
        }
    }
}
