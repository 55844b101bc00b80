import Foundation
import PasswrightTesting
import Signing
import Testing
import WalletCore

/// Certificate expiry as operators see it: a `/metrics` gauge per identity, `/readyz` degraded
/// within 30 days with the pass type named, and a warning in the start-up log.
@Suite("identity expiry")
struct IdentityExpiryTests {
    static let loyalty = "pass.dev.passwright.loyalty"

    @Test("every identity has a seconds-until-expiry gauge, and a year-long certificate leaves /readyz ready")
    func gaugeAndReady() async throws {
        try await withService { server in
            let metrics = try await server.client.send("GET", "/metrics")
            let line = try #require(metrics.text.split(separator: "\n").first { $0.hasPrefix(#"passwright_identity_expiry_seconds{identity="\#(Self.loyalty)"} "#) })
            let seconds = try #require(Double(line.split(separator: " ").last ?? ""))
            #expect(seconds > 360 * 86_400 && seconds <= 366 * 86_400, "\(line)")
            #expect(metrics.text.contains("# TYPE passwright_identity_expiry_seconds gauge"))
            let ready = try await server.client.send("GET", "/readyz")
            #expect(try ready.json()["status"].string == "ready", "\(ready.text)")
        }
    }

    @Test("a certificate within 30 days of expiry degrades /readyz naming its pass type, and start-up warns")
    func expiringDegrades() async throws {
        try await withScratch { folder in
            // Issued 350 days ago for a year: 15 days left.
            _ = try DevCertificates.create(in: folder, passTypeIdentifier: Self.loyalty, teamIdentifier: ThrowawayPKI.team,
                                           now: Date().addingTimeInterval(-350 * 86_400))
            try await withService(identities: folder) { server in
                let ready = try await server.client.send("GET", "/readyz")
                #expect(ready.status == 200, "degraded, still in rotation: \(ready.text)")
                let body = try ready.json()
                #expect(body["status"].string == "degraded", "\(ready.text)")
                let reason = try #require(body["identitiesNeedingRenewal"][Self.loyalty].string, "\(ready.text)")
                #expect(reason.contains("(in 14 days): renew it") || reason.contains("(in 15 days): renew it"), "\(reason)")
                let metrics = try await server.client.send("GET", "/metrics")
                #expect(metrics.text.contains(#"passwright_identity_expiry_seconds{identity="\#(Self.loyalty)"} 1"#), "\(metrics.text)")
                #expect(server.logs.text.contains("signing certificate needs renewal") && server.logs.text.contains(Self.loyalty), "\(server.logs.text)")
            }
        }
    }

    @Test("an Order Type ID identity beside the pass identities is neither gauged nor loaded as a pass type")
    func orderIdentitiesAreLeftOut() async throws {
        try await withScratch { folder in
            _ = try DevCertificates.create(in: folder, passTypeIdentifier: Self.loyalty, teamIdentifier: ThrowawayPKI.team, now: Date())
            // An order identity about to expire: were it read as a pass type, /readyz would degrade.
            let order = "order.dev.passwright.shop"
            _ = try DevCertificates.create(in: folder, typeIdentifier: order, kind: .order, teamIdentifier: ThrowawayPKI.team,
                                           now: Date().addingTimeInterval(-350 * 86_400))
            // Push on (to a port nothing answers: no push is sent here), so every listed pass type gets an
            // APNs client made from its identity, and one that does not load as a pass type is logged.
            let push = PushSettings(enabled: true, apnsURL: URL(string: "https://127.0.0.1:1")!)
            try await withService(push: push, identities: folder) { server in
                // Degraded all the same: the other sample templates have no identity in this folder.
                let ready = try await server.client.send("GET", "/readyz")
                #expect(try ready.json()["identitiesNeedingRenewal"][order].string == nil, "\(ready.text)")
                #expect(!ready.text.contains(order), "\(ready.text)")
                let metrics = try await server.client.send("GET", "/metrics")
                #expect(metrics.text.contains(#"passwright_identity_expiry_seconds{identity="\#(Self.loyalty)"} "#), "\(metrics.text)")
                #expect(!metrics.text.contains(order), "\(metrics.text)")
                #expect(!server.logs.text.contains(order), "\(server.logs.text)")
            }
        }
    }
}
