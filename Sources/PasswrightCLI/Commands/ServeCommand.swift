import PasswrightLogging
import Foundation
import HTTPServer
import PassCompiler
import Signing
import Storage
import WalletCore
import WalletHTTP

/// `passwright serve`: the REST issuing API, the Wallet web service and holder downloads.
struct ServeCommand: Subcommand {
    static let spec = CommandSpec(
        name: "serve",
        abstract: "Run the web service: REST issuing API, Wallet web service, downloads, /metrics.",
        discussion: """
        Every option can also be set as an environment variable (PASSWRIGHT_HOSTNAME, PASSWRIGHT_PORT, …).
        PASSWRIGHT_ADMIN_TOKEN protects /api/v1; when unset, a token is generated on first start and kept in
        <data-dir>/admin-token (mode 0600). PASSWRIGHT_LINK_KEY (hex) signs download links; when unset, one is
        kept in <data-dir>/link-key. Instances sharing one PostgreSQL must share both values.
        Templates live in the database as versions (upload with PUT /api/v1/templates/<name> or
        `passwright templates push`); --templates imports a folder of template folders at start and again
        on SIGHUP, each as a new version where its files changed, rolled out to the template's passes;
        its orders/<name> folders become order template versions, which new orders are made from.
        SIGTERM or SIGINT stops accepting connections, finishes in-flight requests and exits 0.
        """,
        options: [
            .value("hostname", "HOST", help: "Address to listen on (default: 127.0.0.1)."),
            .value("port", "PORT", help: "Port to listen on, 0 for any free one (default: 8080)."),
        ] + DatabaseOptions.options + [
            .value("templates", "DIR", help: "Folder of template folders to import at start and on SIGHUP (default: ./Templates if it exists; 'none' imports nothing)."),
            IdentityOptions.option,
            .value("public-url", "URL", help: "Public https base URL; passes get <public-url>/wallet/ (default: http://<hostname>:<port>, localhost for 0.0.0.0; warned about unless https)."),
            .value("log-level", "LEVEL", help: "debug, info, warning or error (default: info)."),
            .value("push", "on|off", help: "Send APNs pushes when passes change (default: on; off leaves them queued)."),
            .value("apns-url", "URL", help: "APNs base URL (default: https://api.push.apple.com, the only host pass pushes work on)."),
            .value("apns-ca-file", "FILE", help: "CA certificate(s) to trust for APNs instead of the system's (a test stand-in)."),
            .value("push-lease", "SECONDS", help: """
                How long a claimed push stays this instance's before another (or this one, restarted after a crash) \
                takes it over; 5 to 3600 (default: 60).
                """),
            .value("quiet-hours", "HH:MM-HH:MM", help: """
                When a change that shows the holder a notification waits, in the holder's time zone, for templates \
                whose passwright.json sets none; 'off' for never (default: 22:00-07:00).
                """),
            .value("notification-spacing", "SECONDS", help: """
                The least time between two notifications for one pass; later notifying edits fold into one \
                (default: 300; 0 with --quiet-hours off sends every change at once).
                """),
            .value("pass-cache", "MIB", help: "Memory kept for signed passes, so the devices of one pass share one signature; 0 to 65536 MiB (default: 128, about 20,000 passes: each keeps its own ~6 KB, the template's files are held once)."),
            .value("push-rate", "N", help: "Pushes per second this instance sends at most; below it, pushes go as fast as the passes they refresh are signed; 1 to 100000 (default: 5000)."),
            .value("analytics", "on|off", help: "Count each event into the daily analytics counters (GET /api/v1/analytics, /metrics) in its own transaction (default: on; off writes none, and the reports show nothing new)."),
            .value("console", "on|off", help: "Serve the web console at /console, for named users (and the owner with the admin token) (default: on)."),
            .value("wallet-badges", "DIR", help: "A folder of Apple's Add to Apple Wallet badge SVGs named by language (en.svg, de.svg) for holder pages (default: a plain button)."),
            .value("event-retention", "DAYS", help: "How long the event log (GET /api/v1/events) keeps events; 1 to 3650 (default: 30)."),
            .value("audit-retention", "DAYS", help: "How long the audit trail (GET /api/v1/audit) keeps who changed what; 1 to 3650 (default: 365)."),
            .value("history-retention", "DAYS|forever", help: "How long each pass's change history is kept; 1 to 3650 or forever (default: forever)."),
            .value("device-log-retention", "DAYS|forever", help: "How long lines devices post to the log endpoint are kept (they are also capped at 10,000); 1 to 3650 or forever (default: 30)."),
            .value("void-expired", "on|off", help: "Void each pass (and push it) within the hour after its expirationDate (default: off)."),
            .value("voided-retention", "DAYS|forever", help: "How long after it was voided a pass is erased (its record blanked, a voided tombstone kept, as DELETE /api/v1/passes/{type}/{serial} does); 1 to 3650 or forever (default: forever)."),
            .value("webhook-lease", "SECONDS", help: """
                How long a webhook delivery in flight is held before another instance (or this one, restarted) \
                sends it again; 5 to 3600 (default: 60).
                """),
            .value("job-lease", "SECONDS", help: """
                How long a batch of a bulk job's records is held before another instance (or this one, restarted) \
                takes it over; 1 to 3600 (default: 60).
                """),
        ])

    let hostname: String
    let eventRetention: Duration
    let auditRetention: Duration
    let passRetention: RetentionSettings
    let webhookLease: Duration
    let jobLease: Duration
    let port: Int
    let dataDirectory: URL
    let database: DatabaseConfiguration
    let templates: URL?
    let identities: URL
    let publicURL: String
    let logLevel: LogLevel
    let push: PushSettings
    let pushLease: Duration
    let consoleOn: Bool
    let walletBadges: String?
    let analyticsOn: Bool
    let pushRate: Int
    let passCacheBytes: Int
    let notifications: NotificationPolicy
    let environment: [String: String]

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        func setting(_ name: String, _ variable: String) -> String? { arguments.value(name) ?? environment[variable] }
        hostname = setting("hostname", "PASSWRIGHT_HOSTNAME") ?? "127.0.0.1"
        let portText = setting("port", "PASSWRIGHT_PORT") ?? "8080"
        guard let port = Int(portText), (0...65535).contains(port) else { throw UsageError("--port takes 0 to 65535, not '\(portText)'") }
        self.port = port
        dataDirectory = DatabaseOptions.dataDirectory(arguments, environment)
        database = try DatabaseOptions.database(arguments, environment)
        switch setting("templates", "PASSWRIGHT_TEMPLATES") {
        case "none"?: templates = nil
        case let folder?: templates = URL(fileURLWithPath: folder)
        case nil:
            var isFolder: ObjCBool = false
            templates = FileManager.default.fileExists(atPath: "Templates", isDirectory: &isFolder) && isFolder.boolValue
                ? URL(fileURLWithPath: "Templates") : nil
        }
        identities = URL(fileURLWithPath: setting("identities", "PASSWRIGHT_IDENTITIES") ?? "Certificates")
        // A wildcard listen address is no host for a pass to call: default to localhost then (and the
        // service warns at start that Wallet needs an https public URL).
        let host = ["0.0.0.0", "::", "[::]"].contains(hostname) ? "localhost" : hostname
        publicURL = setting("public-url", "PASSWRIGHT_PUBLIC_URL") ?? "http://\(host):\(port)"
        let levelText = setting("log-level", "PASSWRIGHT_LOG_LEVEL") ?? "info"
        guard let level = LogLevel(rawValue: levelText) else { throw UsageError("--log-level is debug, info, warning or error, not '\(levelText)'") }
        logLevel = level
        let pushText = setting("push", "PASSWRIGHT_PUSH") ?? "on"
        guard pushText == "on" || pushText == "off" else { throw UsageError("--push is on or off, not '\(pushText)'") }
        let apnsText = setting("apns-url", "PASSWRIGHT_APNS_URL") ?? "https://api.push.apple.com"
        guard let apnsURL = URL(string: apnsText), apnsURL.scheme == "https" else { throw UsageError("--apns-url must be an https URL, not '\(apnsText)'") }
        push = PushSettings(enabled: pushText == "on", apnsURL: apnsURL, caFile: setting("apns-ca-file", "PASSWRIGHT_APNS_CA_FILE").map { URL(fileURLWithPath: $0) })
        let leaseText = setting("push-lease", "PASSWRIGHT_PUSH_LEASE") ?? "60"
        guard let lease = Int(leaseText), (5...3600).contains(lease) else {
            throw UsageError("--push-lease takes 5 to 3600 seconds, not '\(leaseText)'")
        }
        pushLease = .seconds(lease)
        // A ceiling: the push worker signs each slice's passes before sending it, so a wave follows
        // this machine's signing rate below it (fleet benchmark: ~700 refreshed passes/s on 2 cores).
        let rateText = setting("push-rate", "PASSWRIGHT_PUSH_RATE") ?? "5000"
        guard let rate = Int(rateText), (1...100_000).contains(rate) else {
            throw UsageError("--push-rate takes 1 to 100000 pushes per second, not '\(rateText)'")
        }
        pushRate = rate
        let cacheText = setting("pass-cache", "PASSWRIGHT_PASS_CACHE") ?? "128"
        guard let cacheMiB = Int(cacheText), (0...65_536).contains(cacheMiB) else {
            throw UsageError("--pass-cache takes 0 to 65536 MiB, not '\(cacheText)'")
        }
        passCacheBytes = cacheMiB << 20
        let consoleText = setting("console", "PASSWRIGHT_CONSOLE") ?? "on"
        guard consoleText == "on" || consoleText == "off" else { throw UsageError("--console is on or off, not '\(consoleText)'") }
        consoleOn = consoleText == "on"
        walletBadges = setting("wallet-badges", "PASSWRIGHT_WALLET_BADGES")
        let analyticsText = setting("analytics", "PASSWRIGHT_ANALYTICS") ?? "on"
        guard analyticsText == "on" || analyticsText == "off" else { throw UsageError("--analytics is on or off, not '\(analyticsText)'") }
        analyticsOn = analyticsText == "on"
        let quietText = setting("quiet-hours", "PASSWRIGHT_QUIET_HOURS") ?? "22:00-07:00"
        let quietHours: QuietHours?
        if quietText == "off" {
            quietHours = nil
        } else if let hours = QuietHours(quietText) {
            quietHours = hours
        } else {
            throw UsageError("--quiet-hours takes HH:MM-HH:MM (e.g. 22:00-07:00) or off, not '\(quietText)'")
        }
        let spacingText = setting("notification-spacing", "PASSWRIGHT_NOTIFICATION_SPACING") ?? "300"
        guard let spacing = Int(spacingText), (0...86_400).contains(spacing) else {
            throw UsageError("--notification-spacing takes 0 to 86400 seconds, not '\(spacingText)'")
        }
        notifications = NotificationPolicy(enabled: quietHours != nil || spacing > 0, quietHours: quietHours, spacing: .seconds(spacing))
        let retentionText = setting("event-retention", "PASSWRIGHT_EVENT_RETENTION") ?? "30"
        guard let retention = Int(retentionText), (1...3650).contains(retention) else {
            throw UsageError("--event-retention takes 1 to 3650 days, not '\(retentionText)'")
        }
        eventRetention = .seconds(retention * 86_400)
        let auditText = setting("audit-retention", "PASSWRIGHT_AUDIT_RETENTION") ?? "365"
        guard let auditDays = Int(auditText), (1...3650).contains(auditDays) else {
            throw UsageError("--audit-retention takes 1 to 3650 days, not '\(auditText)'")
        }
        auditRetention = .seconds(auditDays * 86_400)
        func days(_ option: String, _ variable: String, default given: String) throws -> Duration? {
            let text = setting(option, variable) ?? given
            if text == "forever" { return nil }
            guard let days = Int(text), (1...3650).contains(days) else {
                throw UsageError("--\(option) takes 1 to 3650 days or forever, not '\(text)'")
            }
            return .seconds(days * 86_400)
        }
        let voidExpiredText = setting("void-expired", "PASSWRIGHT_VOID_EXPIRED") ?? "off"
        guard voidExpiredText == "on" || voidExpiredText == "off" else { throw UsageError("--void-expired is on or off, not '\(voidExpiredText)'") }
        passRetention = RetentionSettings(
            history: try days("history-retention", "PASSWRIGHT_HISTORY_RETENTION", default: "forever"),
            deviceLogs: try days("device-log-retention", "PASSWRIGHT_DEVICE_LOG_RETENTION", default: "30"),
            voidedPasses: try days("voided-retention", "PASSWRIGHT_VOIDED_RETENTION", default: "forever"),
            voidExpired: voidExpiredText == "on")
        let webhookLeaseText = setting("webhook-lease", "PASSWRIGHT_WEBHOOK_LEASE") ?? "60"
        guard let webhookLeaseSeconds = Int(webhookLeaseText), (5...3600).contains(webhookLeaseSeconds) else {
            throw UsageError("--webhook-lease takes 5 to 3600 seconds, not '\(webhookLeaseText)'")
        }
        webhookLease = .seconds(webhookLeaseSeconds)
        let jobLeaseText = setting("job-lease", "PASSWRIGHT_JOB_LEASE") ?? "60"
        guard let jobLeaseSeconds = Int(jobLeaseText), (1...3600).contains(jobLeaseSeconds) else {
            throw UsageError("--job-lease takes 1 to 3600 seconds, not '\(jobLeaseText)'")
        }
        jobLease = .seconds(jobLeaseSeconds)
        self.environment = environment
    }

    /// libmicrohttpd's threads: one per core on SQLite, two on PostgreSQL, where a daemon thread waits
    /// for each read's round trip (``BlockingPermit``) and a second one keeps the core busy meanwhile
    /// (`Benchmarks/http.sh`: list serials 12.2k/s with one per core, 15.3k/s with two, 15.5k/s with
    /// four; SQLite's reads gained nothing; BENCHMARKS.md).
    static func daemonThreads(for engine: DatabaseEngine) -> Int {
        ProcessInfo.processInfo.activeProcessorCount * (engine == .postgres ? 2 : 1)
    }

    func run(console: Console) async throws -> ExitStatus {
        let logger = Logger(label: "passwright", level: logLevel)
        let adminToken = try secret(variable: "PASSWRIGHT_ADMIN_TOKEN", file: "admin-token", console: console) { SecureRandom.token(length: 40) }
        let linkKeyHex = try secret(variable: "PASSWRIGHT_LINK_KEY", file: "link-key", console: console) {
            Digest.hex(SecureRandom.bytes(32))
        }
        let environment = self.environment
        var configuration = ServiceConfiguration(
            database: database, templatesDirectory: templates, identitiesDirectory: identities,
            passphrase: { environment[IdentityOptions.passphraseVariable(for: $0)] ?? environment["PASSWRIGHT_KEY_PASSPHRASE"] },
            publicURL: publicURL, adminToken: adminToken, downloadLinkKey: Data(linkKeyHex.utf8),
            push: push, notifications: notifications)
        configuration.passphraseHelp = IdentityOptions.passphraseHelp
        configuration.console = consoleOn
        configuration.walletBadgesDirectory = walletBadges
        configuration.analytics = analyticsOn
        configuration.eventRetention = eventRetention
        configuration.auditRetention = auditRetention
        configuration.retention = passRetention
        configuration.passCacheBytes = passCacheBytes
        let service = try WalletService(
            configuration: configuration, http: HTTPServerConfiguration(hostname: hostname, port: port, threadCount: Self.daemonThreads(for: database.engine)),
            pushWorker: PushWorkerConfiguration(lease: pushLease, rate: pushRate),
            webhookWorker: WebhookWorkerConfiguration(lease: webhookLease),
            bulkJobWorker: BulkJobWorkerConfiguration(lease: jobLease), logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await service.run() }
            // Start-up (the database, migrations, template import) runs inside run(); the banner waits
            // for the bound port, and a failed start-up ends serve with its error.
            let bound = try await service.waitUntilListening()
            console.err("Passwright serving on http://\(hostname):\(bound) (public URL \(publicURL)); Ctrl-C stops it.")
            if consoleOn { console.err("Console: \(publicURL)/console (sign in with the admin token).") }
            group.addTask {
                await SignalWatcher.wait(for: [SIGINT, SIGTERM])
                logger.info("signal received; draining")
            }
            group.addTask {
                for await _ in SignalWatcher.stream(of: [SIGHUP]) {
                    logger.info("SIGHUP: importing the template folders")
                    do {
                        try await service.importTemplateFolders()
                    } catch {
                        logger.error("template folders not imported", ["error": "\(error)"])
                    }
                }
            }
            _ = try await group.next()
            group.cancelAll()
            try await group.waitForAll()
        }
        return .success
    }

    /// A secret from the environment, else from `<data-dir>/<file>`, else made now and kept there
    /// (mode 0600) so it survives restarts. Its value is never printed, only where it lives.
    private func secret(variable: String, file: String, console: Console, make: () -> String) throws -> String {
        if let value = environment[variable], !value.isEmpty { return value }
        let url = dataDirectory.appendingPathComponent(file)
        if let stored = try? String(contentsOf: url, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines), !stored.isEmpty {
            return stored
        }
        let value = make()
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: url.path, contents: Data((value + "\n").utf8), attributes: [.posixPermissions: 0o600]) else {
            throw UsageError("cannot write \(url.path); set \(variable) instead")
        }
        console.err("Generated \(variable) and stored it in \(url.path) (mode 0600).")
        return value
    }
}
