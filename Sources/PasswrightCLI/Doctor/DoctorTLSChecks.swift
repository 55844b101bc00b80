import Foundation
import Signing

/// The checks of the URL's HTTPS, made the way App Transport Security judges a web service: Wallet
/// calls only `https` URLs, over TLS 1.2 or later with a forward-secret cipher, to a server whose
/// certificate chain the phone trusts, signed with SHA-256 or better and with a key of at least
/// 2048 (RSA) or 256 (EC) bits (Apple's "Preventing Insecure Network Connections").
struct DoctorTLSChecks: Sendable {
    let url: URL
    let caFile: URL?
    let timeout: Duration
    let now: Date

    /// The findings, and whether the HTTPS is good enough for the checks over it to mean anything.
    func run() async -> (findings: [DoctorFinding], usable: Bool) {
        guard url.scheme?.lowercased() == "https", let host = url.host else {
            return ([DoctorFinding(
                check: "https", result: .fail, detail: "\(url.absoluteString) is not an https URL",
                fix: "Put a TLS reverse proxy (nginx, Caddy) in front of passwright and serve https; then `serve --public-url https://…`",
                effect: "Wallet calls only https web services: without it no pass ever registers or updates."
            )], false)
        }
        let probe = TLSProbe(host: host, port: url.port ?? 443, caFile: caFile, timeout: timeout)
        var findings = [DoctorFinding.pass("https", url.absoluteString)]
        let handshake: TLSHandshake
        switch await Self.offPool({ Result { () throws(TLSProbeError) in try probe.handshake(.appTransportSecurity) } }) {
        case .success(let agreed):
            handshake = agreed
        case .failure(.connectFailed(let server, let detail)):
            findings.append(DoctorFinding(
                check: "tls.connect", result: .fail, detail: "no connection to \(server): \(detail)",
                fix: "Check the host name, DNS, the firewall and that the reverse proxy listens on \(probe.port)",
                effect: "Phones can reach the web service."))
            return (findings, false)
        case .failure(.handshakeFailed(_, let detail)):
            findings.append(await refusedHandshake(probe, detail: detail))
            return (findings, false)
        }
        findings.append(.pass("tls.version", "\(handshake.protocolVersion), \(handshake.cipher)"))
        findings.append(trust(handshake))
        findings.append(certificate(handshake))
        return (findings, handshake.verificationFailure == nil)
    }

    /// Why ATS's offer was refused: current TLS without an allowed cipher, or only old TLS.
    private func refusedHandshake(_ probe: TLSProbe, detail: String) async -> DoctorFinding {
        if case .success(let any) = await Self.offPool({ Result { () throws(TLSProbeError) in try probe.handshake(.anyCipher) } }) {
            return DoctorFinding(
                check: "tls.cipher", result: .fail,
                detail: "\(any.protocolVersion) only with \(any.cipher) (\(any.keyExchange) key exchange): no forward-secret cipher App Transport Security allows",
                fix: "Offer ECDHE suites with AES-GCM, e.g. nginx `ssl_ciphers ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384;`",
                effect: "Wallet completes the handshake; today it refuses the connection, so no pass registers or updates.")
        }
        if case .success(let legacy) = await Self.offPool({ Result { () throws(TLSProbeError) in try probe.handshake(.legacy) } }) {
            return DoctorFinding(
                check: "tls.version", result: .fail,
                detail: "only \(legacy.protocolVersion) is offered; Wallet needs TLS 1.2 or later",
                fix: "Enable TLS 1.2 and 1.3, e.g. nginx `ssl_protocols TLSv1.2 TLSv1.3;`",
                effect: "Wallet completes the handshake; today it refuses the connection, so no pass registers or updates.")
        }
        return DoctorFinding(
            check: "tls.version", result: .fail, detail: "no TLS handshake: \(detail)",
            fix: "Serve TLS 1.2 or 1.3 on this port (is it plain HTTP, or another service?)",
            effect: "Wallet can connect; today no pass registers or updates.")
    }

    private func trust(_ handshake: TLSHandshake) -> DoctorFinding {
        let subject = handshake.chain.first?.subject ?? "no certificate"
        guard let failure = handshake.verificationFailure else {
            return .pass("tls.trust", "\(subject), issued by \(handshake.chain.first?.issuer ?? "?")")
        }
        let fix: String
        switch failure {
        case let text where text.contains("self-signed") || text.contains("self signed"):
            fix = "Replace the self-signed certificate with one from a public CA (Let's Encrypt, for one)"
        case let text where text.contains("local issuer"):
            fix = "Serve the whole chain, the intermediates after the server's certificate (nginx: `ssl_certificate fullchain.pem;`)"
        case let text where text.contains("expired"):
            fix = "Renew the certificate (and automate it: certbot, Caddy)"
        case let text where text.contains("hostname mismatch") || text.contains("Hostname mismatch"):
            fix = "Use a certificate whose names include \(url.host ?? "the host")"
        default:
            fix = "Serve a certificate from a public CA with its full chain"
        }
        return DoctorFinding(
            check: "tls.trust", result: .fail, detail: "\(subject): \(failure)", fix: fix,
            effect: "iPhones trust the server; today Wallet refuses the connection, so no pass registers or updates.")
    }

    private func certificate(_ handshake: TLSHandshake) -> DoctorFinding {
        var problems: [String] = []
        if !handshake.hasStrongSignature { problems.append("signed with \(handshake.signatureDigest), not SHA-256 or better") }
        if !handshake.hasStrongKey { problems.append("a \(handshake.keyBits)-bit \(handshake.keyType) key (RSA needs 2048, EC 256)") }
        let seen = "\(handshake.keyType) \(handshake.keyBits) bits, \(handshake.signatureDigest)"
        if !problems.isEmpty {
            return DoctorFinding(
                check: "tls.certificate", result: .fail, detail: problems.joined(separator: "; "),
                fix: "Issue a new certificate: an EC P-256 or RSA 2048 key, signed with SHA-256",
                effect: "App Transport Security accepts the certificate; today Wallet refuses the connection.")
        }
        if let leaf = handshake.chain.first, leaf.notAfter.timeIntervalSince(now) < Certificate.renewalWindow {
            return DoctorFinding(
                check: "tls.certificate", result: .warn, detail: "\(seen); expires \(leaf.notAfter.formatted(.iso8601))",
                fix: "Renew it now, and automate renewal", effect: "Phones keep updating passes past that day.")
        }
        return .pass("tls.certificate", seen)
    }

    /// Runs blocking work (a TLS handshake waits on its socket) on a thread of its own, so the
    /// cooperative pool never blocks.
    static func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }
}
