import Foundation
import PassCompiler
import PassModel
import Signing
import WalletStore

/// The service layer: everything the routes do with passes, devices, logs and pushes goes through
/// here, so the routes hold no store and read no clock of their own.
///
/// Every change is rendered and validated with the template before it is stored, so the store never
/// holds a pass that cannot be built; and it is rendered *outside* any transaction, then written with
/// a compare-and-swap on the pass's update tag (retried on conflict), so a writer never waits while
/// another pass renders. The service owns the clock (``now()``): download links and lint dates come
/// from the same injected clock as the store's timestamps.
///
/// Extensions by concern: `PassService+Lookup` (reading passes, token checks), `+Devices` (the
/// Wallet device endpoints, logs and a pass's devices), `+Push` (forced pushes, outbox state),
/// `+Update` (one pass's change), `+History` (its changes), `+Search` (finding passes).
public struct PassService: Sendable {
    let store: WalletStore
    let templates: TemplateLibrary
    let archives: ArchiveCache
    /// The source of "now" for everything the service dates; the store's clock unless a test pins one.
    let clock: any WalletClock
    /// How often an update renders its change before answering ``WalletStoreError/updateConflict(_:attempts:)``
    /// (HTTP 503): each failed attempt means another writer's change to the pass landed first.
    let maximumUpdateAttempts: Int
    /// Awaited after a change is rendered and validated, before it is written. Production has none;
    /// tests suspend here to prove that no transaction or lock is held while a pass renders.
    let afterValidation: (@Sendable (PassKey) async -> Void)?
    /// When changes that notify the holder go out (quiet hours, spacing).
    let notifications: NotificationPolicy
    /// Told of every new hold, so it wakes for the earliest release.
    let holds: HoldReleaser?

    /// How often an update is attempted by default: enough for a handful of writers racing on one
    /// pass, few enough that a request under a stream of writers answers quickly instead of spinning.
    static let defaultMaximumUpdateAttempts = 5

    /// A service over `store`, dating everything with the store's clock.
    init(store: WalletStore, templates: TemplateLibrary, notifications: NotificationPolicy = .off, holds: HoldReleaser? = nil) {
        self.init(store: store, templates: templates, clock: store.clock, notifications: notifications, holds: holds)
    }

    /// A service with its clock, retry bound and test hook given.
    init(
        store: WalletStore, templates: TemplateLibrary, clock: any WalletClock, maximumUpdateAttempts: Int = defaultMaximumUpdateAttempts,
        afterValidation: (@Sendable (PassKey) async -> Void)? = nil, notifications: NotificationPolicy = .off, holds: HoldReleaser? = nil
    ) {
        precondition(maximumUpdateAttempts >= 1, "an update makes at least one attempt")
        self.store = store
        self.templates = templates
        self.clock = clock
        self.maximumUpdateAttempts = maximumUpdateAttempts
        self.afterValidation = afterValidation
        self.notifications = notifications
        self.holds = holds
        archives = ArchiveCache(capacity: 256)
    }

    /// "Now" from the service's clock: for download link expiry and checks, and the lint date.
    public func now() -> Date {
        clock.now()
    }

    /// A request to issue a pass.
    public struct Issue {
        public var template: String
        public var serialNumber: String?
        public var data: JSONObject
        public var overrides: JSONObject

        public init(template: String, serialNumber: String?, data: JSONObject, overrides: JSONObject) {
            (self.template, self.serialNumber, self.data, self.overrides) = (template, serialNumber, data, overrides)
        }
    }

    /// Issues a pass from the template's current version: validates it, then stores it with a fresh
    /// token and that version.
    public func issue(_ request: Issue) async throws -> StoredPass {
        let (version, compiler) = try await templates.currentCompiler(request.template)
        if request.serialNumber == nil, let given = request.data["serialNumber"], given != .null, given.kind != JSONValue.string("").kind {
            // A number (or anything but a string) would otherwise be dropped for a UUID without a word.
            throw ServiceError.invalid("data.serialNumber must be a string (Wallet's serialNumber is a string); found \(given.kind)")
        }
        let serial = request.serialNumber ?? Self.string(request.data["serialNumber"]) ?? UUID().uuidString.lowercased()
        // Checked after choosing, so a serial number from the record obeys the same rules: one with '/'
        // or NUL could never be named in a Wallet or download URL (the router refuses both).
        guard !serial.isEmpty, serial.count <= 256, !serial.contains("\u{0}"), !serial.contains("/") else {
            throw ServiceError.invalid("serialNumber must be 1 to 256 characters without '/' or NUL")
        }
        let token = Self.string(request.data["authenticationToken"]) ?? SecureRandom.token(length: 32)
        guard token.count >= 16 else { throw ServiceError.invalid("data.authenticationToken must be at least 16 characters") }
        let input = PassInput(record: .object(request.data), recordName: "data", serialNumber: serial, authenticationToken: token, overrides: request.overrides)
        _ = try compiler.validate(input)
        let key = PassKey(passTypeIdentifier: compiler.template.passTypeIdentifier, serialNumber: serial)
        return try await store.createPass(NewPass(
            key: key, template: request.template, data: Self.text(.object(request.data)),
            overrides: Self.text(.object(request.overrides)), authenticationToken: token, templateVersion: version))
    }

    /// A change to one pass or to every pass of a template.
    public struct Change: Sendable {
        public var data: JSONValue?
        public var overrides: JSONObject
        public var voided: Bool?

        public init(data: JSONValue?, overrides: JSONObject, voided: Bool?) {
            (self.data, self.overrides, self.voided) = (data, overrides, voided)
        }
    }

    /// Applies one change to every pass of a template, all or nothing: every pass's change is rendered
    /// and validated (outside any transaction) before the first is written, so one invalid pass fails
    /// the request with nothing written. The writes then go in short batches with a compare-and-swap
    /// per pass (``WalletStore/updatePasses(template:maxAttempts:source:_:)``). Each written pass's
    /// history records the change with `source` (``PassUpdateRecord/api`` from the REST API).
    public func update(template: String, _ change: Change, source: String) async throws -> TemplateUpdateOutcome {
        _ = try await templates.currentCompiler(template)
        let templates = self.templates
        let afterValidation = self.afterValidation
        return try await store.updatePasses(template: template, maxAttempts: maximumUpdateAttempts, source: source) { current in
            let proposed = try await Self.apply(change, to: current, templates: templates)
            await afterValidation?(current.key)
            return proposed
        }
    }

    /// The signed archive of a stored pass, built once per update tag and template version.
    public func archive(for pass: StoredPass) async throws -> Data {
        if let cached = archives.archive(for: pass) { return cached }
        let compiler = try await templates.compiler(for: pass)
        var overrides = try Self.object(pass.overrides)
        if pass.voided { overrides["voided"] = .bool(true) }
        let input = PassInput(record: try Self.value(pass.data), recordName: "stored pass \(pass.key)", serialNumber: pass.key.serialNumber, authenticationToken: pass.authenticationToken, overrides: overrides)
        let archive = try compiler.compile(input).archive
        archives.store(archive, for: pass)
        return archive
    }

    /// Whether the pass's template ships `personalization.json` (and so asks Wallet for a sign-up).
    public func offersPersonalization(_ pass: StoredPass) async -> Bool {
        guard let compiler = try? await templates.compiler(for: pass) else { return false }
        return compiler.template.files.contains { $0.path == "personalization.json" }
    }

    /// Signs a personalization token with the pass's identity (Apple's Wallet Web Service Reference, personalization).
    public func signPersonalizationToken(_ token: String, for pass: StoredPass) async throws -> Data {
        try await templates.compiler(for: pass).signDetached(Data(token.utf8))
    }

    /// The stored change `change` makes to `current` (merged, rendered and validated), or `nil` when it
    /// changes nothing. It runs outside any transaction, maybe more than once; its only I/O is loading
    /// the pass's template version on this instance's first use of it.
    static func apply(_ change: Change, to current: StoredPass, templates: TemplateLibrary) async throws -> PassChange? {
        let data = try change.data.map { JSONMergePatch.apply($0, to: try value(current.data)) } ?? value(current.data)
        var overrides = try object(current.overrides)
        for (key, value) in change.overrides { overrides[key] = value == .null ? nil : value }
        let voided = change.voided ?? current.voided
        let dataText = text(data), overridesText = text(.object(overrides))
        guard dataText != current.data || overridesText != current.overrides || voided != current.voided else { return nil }
        let compiler = try await templates.compiler(for: current)
        var checked = overrides
        if voided { checked["voided"] = .bool(true) }
        _ = try compiler.validate(PassInput(record: data, recordName: "pass \(current.key.serialNumber)", serialNumber: current.key.serialNumber, authenticationToken: current.authenticationToken, overrides: checked))
        return PassChange(data: dataText, overrides: overridesText, voided: voided)
    }

    public static func text(_ value: JSONValue) -> String {
        String(decoding: value.serialized(sortedKeys: true), as: UTF8.self)
    }

    public static func value(_ text: String) throws -> JSONValue {
        try JSONValue.parse(Data(text.utf8))
    }

    public static func object(_ text: String) throws -> JSONObject {
        guard case .object(let object) = try value(text) else { return JSONObject() }
        return object
    }

    private static func string(_ value: JSONValue?) -> String? {
        if case .string(let string)? = value, !string.isEmpty { return string }
        return nil
    }
}
