import APNs
import Foundation
import PassModel
import Signing

/// `passwright doctor URL`: checks a deployment from the outside, the way Wallet on a phone will use
/// it, and prints one table of what is wrong, what to change and what that changes.
///
/// The most common trouble with a pass server is not building passes but a deployment that never
/// updates them: plain HTTP, TLS Wallet refuses, a proxy that strips `/wallet`, the wrong public URL,
/// an expired or mismatched certificate. Each has a check here.
struct DoctorCommand: Subcommand {
    static let spec = CommandSpec(
        name: "doctor",
        abstract: "Check a deployment the way Wallet will use it: HTTPS, health, the device protocol, identities and APNs.",
        discussion: """
        URL is the public base URL phones reach (what `serve --public-url` says), e.g. https://passes.example.com.
        Checks, in order: https; TLS 1.2+ with a forward-secret cipher, a trusted chain, a SHA-256 certificate
        with an RSA 2048 or EC 256 key (App Transport Security); /healthz and /readyz; /wallet/ reaches the web
        service. With PASSWRIGHT_ADMIN_TOKEN: a throwaway pass is issued, its webServiceURL checked, the whole
        device protocol played against it (register, list, fetch, fetch with If-Modified-Since, unregister,
        log), its download link followed, then it is voided. With --identities: each identity's validity,
        WWDR intermediate and a push to APNs that shows whether APNs accepts the certificate.
        Exit status: 0 nothing failed (warnings allowed), 1 a check failed, 64 usage.
        """,
        arguments: [CommandSpec.Argument(name: "URL", help: "The deployment's public base URL.")],
        options: [
            .value("ca-file", "FILE", help: "Trust the CA certificates in FILE instead of the system's (a private CA)."),
            .value("template", "NAME", help: "The template of the throwaway pass (default: the first ready one)."),
            .value("record", "FILE", help: "The throwaway pass's data, a JSON object (default: each placeholder set to its name)."),
            .value("identities", "DIR", help: "Check the identities in DIR (default: $PASSWRIGHT_IDENTITIES; none when unset)."),
            .value("apns-url", "URL", help: "The APNs host the identities are checked with (default: $PASSWRIGHT_APNS_URL or https://api.push.apple.com)."),
            .value("apns-ca-file", "FILE", help: "Trust FILE for the APNs host (default: $PASSWRIGHT_APNS_CA_FILE or the system's)."),
            .value("timeout", "SECONDS", help: "How long each connection and request may take (default: 10)."),
            .flag("json", help: "Print the findings as JSON."),
        ])

    let url: URL
    let caFile: URL?
    let template: String?
    let record: JSONObject?
    let identities: IdentityDirectory?
    let apns: APNsConfiguration
    let timeout: Duration
    let json: Bool
    let token: String?

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        guard let text = arguments.positional(0) else { throw UsageError("give the deployment's public URL, e.g. passwright doctor https://passes.example.com") }
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            throw UsageError("'\(text)' is not an http:// or https:// URL")
        }
        self.url = url
        caFile = arguments.value("ca-file").map { URL(fileURLWithPath: $0) }
        template = arguments.value("template")
        if let path = arguments.value("record") {
            guard let bytes = FileManager.default.contents(atPath: path), case .object(let object)? = try? JSONValue.parse(bytes) else {
                throw UsageError("--record \(path) is not a readable file holding one JSON object")
            }
            record = object
        } else {
            record = nil
        }
        identities = (arguments.value("identities") ?? environment["PASSWRIGHT_IDENTITIES"]).map { _ in
            IdentityOptions(arguments: arguments, environment: environment).directory
        }
        let apnsText = arguments.value("apns-url") ?? environment["PASSWRIGHT_APNS_URL"] ?? "https://api.push.apple.com"
        guard let apnsURL = URL(string: apnsText), apnsURL.scheme == "https" else { throw UsageError("--apns-url must be an https URL, not '\(apnsText)'") }
        let seconds = arguments.value("timeout") ?? "10"
        guard let limit = Int(seconds), limit > 0 else { throw UsageError("--timeout must be a positive number of seconds, not '\(seconds)'") }
        timeout = .seconds(limit)
        apns = APNsConfiguration(
            url: apnsURL, caFile: (arguments.value("apns-ca-file") ?? environment["PASSWRIGHT_APNS_CA_FILE"]).map { URL(fileURLWithPath: $0) },
            connections: 1, requestTimeout: timeout)
        json = arguments.flag("json")
        token = environment[AdminAPI.tokenVariable].flatMap { $0.isEmpty ? nil : $0 }
    }

    func run(console: Console) async throws -> ExitStatus {
        let now = Date()
        console.err("doctor: checking \(url.absoluteString)")
        let (tlsFindings, tlsUsable) = await DoctorTLSChecks(url: url, caFile: caFile, timeout: timeout, now: now).run()
        var findings = tlsFindings
        let reachable = tlsUsable || url.scheme?.lowercased() == "http"
        let http = try DoctorHTTP(base: url, caFile: caFile, timeout: timeout)
        if reachable {
            console.err("doctor: health and the web service path")
            findings += await DoctorServiceChecks(http: http).run()
        } else {
            findings.append(.skipped("healthz, readyz, wallet.path", "the TLS checks failed: fix them first"))
        }
        if !tlsUsable {
            findings.append(.skipped("pass.*, wallet.*", "Wallet would not get this far: fix the checks above first"))
        } else if let token {
            console.err("doctor: a throwaway pass through the device protocol")
            findings += await DoctorPassWalk(http: http, token: token, template: template, record: record).run()
        } else {
            findings.append(.skipped("pass.*, wallet.*", "set \(AdminAPI.tokenVariable) to issue a throwaway pass and play the device protocol"))
        }
        await http.shutdown()
        if let identities {
            console.err("doctor: identities and APNs")
            findings += await DoctorIdentityChecks(directory: identities, apns: apns, now: now).run()
        } else {
            findings.append(.skipped("identity, apns", "give --identities DIR to check the identities and APNs"))
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            console.outBytes(try encoder.encode(findings) + Data("\n".utf8))
        } else {
            console.out(DoctorReport.markdown(findings))
            console.out(DoctorReport.summary(findings))
        }
        return findings.contains { $0.result == .fail } ? .failure : .success
    }
}
