import Foundation
import PassCompiler
import PassModel
import Signing
import WalletStore

/// The service layer: everything the routes do with passes, devices, logs and pushes goes through
/// here, so the routes hold no store and read no clock of their own.
///
/// Every change goes through one write pipeline (``PassWriter``): rendered and validated with the
/// template before it is stored, so the store never holds a pass that cannot be built, outside any
/// transaction, then written with a compare-and-swap on the pass's update tag and held change. The
/// service owns the clock (``now()``): download links and lint dates come from the same injected
/// clock as the store's timestamps.
///
/// Extensions by concern: `PassService+Lookup` (reading passes, token checks), `+Devices` (the
/// Wallet device endpoints, logs and a pass's devices), `+Push` (forced pushes, outbox state),
/// `+Update` (one pass's change), `+History` (its changes), `+Search` (finding passes).
public struct PassService: Sendable {
    let store: WalletStore
    let templates: TemplateLibrary
    let signedPasses: SignedPassCache
    /// The source of "now" for everything the service dates; the store's clock unless a test pins one.
    let clock: any WalletClock
    /// The one write pipeline every change to a pass goes through.
    let writer: PassWriter
    /// Rung whenever a hold is stored, so the ``HoldReleaser`` wakes for the earliest release.
    let holdStored = Doorbell()

    /// A service over `store`, dating everything with the store's clock.
    init(store: WalletStore, templates: TemplateLibrary, notifications: NotificationPolicy = .off, passCacheBytes: Int = SignedPassCache.defaultBudget) {
        self.init(store: store, templates: templates, clock: store.clock, notifications: notifications, passCacheBytes: passCacheBytes)
    }

    /// A service with its clock, retry bound and test hook given.
    init(
        store: WalletStore, templates: TemplateLibrary, clock: any WalletClock, maximumUpdateAttempts: Int = PassWriter.defaultMaximumAttempts,
        afterValidation: (@Sendable (PassKey) async -> Void)? = nil, notifications: NotificationPolicy = .off, passCacheBytes: Int = SignedPassCache.defaultBudget
    ) {
        precondition(maximumUpdateAttempts >= 1, "an update makes at least one attempt")
        self.store = store
        self.templates = templates
        self.clock = clock
        signedPasses = SignedPassCache(budget: passCacheBytes)
        let doorbell = holdStored
        writer = PassWriter(
            store: store, templates: templates, clock: clock, notifications: notifications, maximumAttempts: maximumUpdateAttempts,
            afterValidation: afterValidation, holdStored: { doorbell.ring() })
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
    /// token and that version; its `pass.issued` event and audit row name `origin`. A version
    /// published between the two is current when the pass would be stored, so the pass is built
    /// again from it (up to the writer's bound of attempts): a roll-out already under way would not
    /// move a pass stored at the version before.
    public func issue(_ request: Issue, origin: WriteOrigin) async throws -> StoredPass {
        var attempt = 1
        while true {
            let (version, compiler) = try await templates.currentCompiler(request.template)
            do {
                return try await store.createPass(try Self.prepare(request, compiler: compiler, version: version), origin: origin)
            } catch WalletStoreError.templateVersionSuperseded where attempt < writer.maximumAttempts {
                attempt += 1
            }
        }
    }

    /// The pass `request` makes with `compiler` (its template's `version`), validated: the serial
    /// number given, the record's, or a new UUID; the record's token or a new one. Throws what is wrong.
    static func prepare(_ request: Issue, compiler: PassCompiler, version: Int64) throws -> NewPass {
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
        let validated = try compiler.validate(input)
        let key = PassKey(passTypeIdentifier: compiler.template.passTypeIdentifier, serialNumber: serial)
        return NewPass(
            key: key, template: request.template, data: Self.text(.object(request.data)),
            overrides: Self.text(.object(request.overrides)), authenticationToken: token, templateVersion: version,
            expiresAt: validated.pass.expirationDate?.date)
    }

    /// A change to one pass or to every pass of a template.
    public typealias Change = PassEdit

    /// Applies one change to every pass of a template, all or nothing, through the write pipeline
    /// (``PassWriter/write(template:_:origin:)``): a notifying change is held per holder's quiet
    /// hours. Each written pass's history, event and audit row name `origin`.
    public func update(template: String, _ change: Change, origin: WriteOrigin) async throws -> TemplateUpdateResult {
        _ = try await templates.currentCompiler(template)
        return try await writer.write(template: template, change, origin: origin)
    }

    /// The signed archive of a stored pass, signed once per update tag and template version (and
    /// copied from its kept bytes and the template's shared ones on each later call).
    public func archive(for pass: StoredPass) async throws -> Data {
        try packaged(pass, with: try await templates.compiler(for: pass)).archive
    }

    /// The pass signed and packaged with `compiler` (its template version's): from the cache, or
    /// signed now and kept.
    func packaged(_ pass: StoredPass, with compiler: PassCompiler) throws -> PackagedPass {
        let version = SignedPassCache.Version(pass)
        if let cached = signedPasses.packaged(version) { return cached }
        var overrides = try Self.object(pass.overrides)
        if pass.voided { overrides["voided"] = .bool(true) }
        let input = PassInput(
            record: try Self.value(pass.data), recordName: "stored pass \(pass.key)", serialNumber: pass.key.serialNumber,
            authenticationToken: pass.authenticationToken, overrides: overrides)
        let packaged = try compiler.packaged(try compiler.sign(input), recordName: input.recordName)
        signedPasses.store(packaged, for: version)
        return packaged
    }

    /// Hits, misses and size of the signed-pass cache, for `/metrics`.
    public var passCacheStatistics: SignedPassCacheStatistics { signedPasses.statistics }

    /// Whether the pass's template ships `personalization.json` (and so asks Wallet for a sign-up).
    public func offersPersonalization(_ pass: StoredPass) async -> Bool {
        guard let compiler = try? await templates.compiler(for: pass) else { return false }
        return compiler.template.files.contains { $0.path == "personalization.json" }
    }

    /// Signs a personalization token with the pass's identity (Apple's Wallet Web Service Reference, personalization).
    public func signPersonalizationToken(_ token: String, for pass: StoredPass) async throws -> Data {
        try await templates.compiler(for: pass).signDetached(Data(token.utf8))
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

    static func string(_ value: JSONValue?) -> String? {
        if case .string(let string)? = value, !string.isEmpty { return string }
        return nil
    }
}
