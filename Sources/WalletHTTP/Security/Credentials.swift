import Foundation
import HTTPServer
import Signing
import WalletCore

/// Reads the credentials Wallet and admin clients send.
enum Credentials {
    /// The token of `Authorization: AppleOrder <token>` (Apple's Orders web service).
    static func orderToken(_ request: HTTPRequest) -> String? {
        guard let header = request.headers["authorization"], header.hasPrefix("AppleOrder ") else { return nil }
        let token = String(header.dropFirst("AppleOrder ".count).trimmingHTTPWhitespace)
        return token.isEmpty ? nil : token
    }

    /// The token of `Authorization: ApplePass <token>` (also the `WalletPass` spelling some clients use).
    static func passToken(_ request: HTTPRequest) -> String? {
        guard let header = request.headers["authorization"] else { return nil }
        for scheme in ["ApplePass ", "WalletPass "] where header.hasPrefix(scheme) {
            let token = String(header.dropFirst(scheme.count).trimmingHTTPWhitespace)
            return token.isEmpty ? nil : token
        }
        return nil
    }

    /// Whether `Authorization: Bearer <token>` carries the admin token (compared in constant time).
    static func isAdmin(_ request: HTTPRequest, adminToken: String) -> Bool {
        guard let header = request.headers["authorization"], header.hasPrefix("Bearer ") else { return false }
        return constantTimeEquals(String(header.dropFirst(7).trimmingHTTPWhitespace), adminToken)
    }
}
