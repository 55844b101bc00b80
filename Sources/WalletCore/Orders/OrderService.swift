import Foundation
import Locking
import OrderModel
import OrderPackage
import OrderPreview
import PassCompiler
import PassModel
import PasswrightLogging
import Signing
import WalletStore

/// Orders (Apple's "Wallet Orders"): created from an order template and a JSON Merge Patch, changed
/// by patches through the store's one order write path (events, audit, pushes in its transaction),
/// signed as `.order` packages when Wallet or the API asks, and the Orders web service's devices.
public final class OrderService: Sendable {
    /// An order's identity, as adapters name it (they never import the store).
    public typealias Key = OrderKey
    /// An order as stored.
    public typealias Stored = StoredOrder
    let store: WalletStore
    private let identities: IdentityDirectory
    /// `webServiceURL` of every order (Wallet appends `/v1/…` to it), or `nil` when the public URL is
    /// not https: an order must name an https web service, so then orders carry none (and no token
    /// in `order.json`) and Wallet keeps them as they were added — the web service still answers
    /// with the stored token, for development.
    let webServiceURL: String?
    /// Versions of order templates read so far: a version never changes, so each is read once.
    private let versions = Locked<[String: OrderTemplate]>([:])
    /// Template folders the last import could not use, and why: `/readyz` names those with no stored
    /// version (a stored one stays current and signs), as the pass templates' refusals do.
    private let refusedFolders = Locked<[String: String]>([:])
    /// One packager per order type, made on first use (it holds the prepared signer).
    private let packagers = Locked<[String: OrderPackager]>([:])
    /// Keys only the server writes: identities, the web service and its token, the change clock.
    static let serverOwnedKeys: Set<String> = ["orderTypeIdentifier", "orderIdentifier", "webServiceURL", "authenticationToken", "updatedAt"]
    /// Attempts of an update whose order keeps changing under it before it answers busy: the passes'
    /// bound (each round at least one racing writer lands, so this many writers racing all land).
    static let updateAttempts = PassWriter.defaultMaximumAttempts

    init(store: WalletStore, identities: IdentityDirectory, webServiceURL: String?) {
        self.store = store
        self.identities = identities
        self.webServiceURL = webServiceURL
    }

    // MARK: - Templates

    /// Imports every folder under `directory/orders/` (at start and on `SIGHUP`): a folder whose files
    /// were never stored becomes the template's new version, used by the orders created from now on;
    /// orders already made keep the version they were made from. Files stored before are left alone,
    /// so an instance started with an older folder does not undo an upload. A folder that cannot be
    /// used is logged, and named by `/readyz` while no version of it is stored.
    public func importFolders(in directory: URL, logger: Logger) async throws {
        var refused: [String: String] = [:]
        for (name, folder) in OrderTemplate.folders(in: directory).sorted(by: { $0.key < $1.key }) {
            let version: NewOrderTemplateVersion
            do {
                version = try OrderTemplate.read(name: name, from: folder, origin: .system("folder \(folder.path)"))
            } catch {
                refused[name] = "the folder was not imported: \(error)"
                logger.warning("order template folder not imported; the stored version (if any) stays current", ["template": name, "reason": "\(error)"])
                continue
            }
            // Files stored before, even if an upload replaced them since, are not stored again: a
            // restart must never undo what the API made current.
            if try await store.hasOrderTemplateVersion(name, digest: version.digest) { continue }
            if case .stored(let number) = try await store.saveOrderTemplateVersion(version) {
                logger.info("order template imported", ["template": name, "version": String(number)])
            }
        }
        refusedFolders.withLock { $0 = refused }
    }

    /// Stores `files` (an upload of a template folder) as a new version of the order template
    /// `name`, unless they equal its current version; new orders are made from it, orders already
    /// made keep theirs. Throws ``OrderFailure/unusableTemplate(_:reason:)`` (HTTP 422) unless
    /// `order.json` is a JSON object naming an order type.
    public func publish(name: String, files: [TemplateSourceFile], origin: WriteOrigin) async throws -> OrderTemplateUpload {
        let version = try OrderTemplate.version(name: name, files: files, origin: origin)
        let save = try await store.saveOrderTemplateVersion(version)
        refusedFolders.withLock { $0[name] = nil }
        let changed = if case .stored = save { true } else { false }
        return OrderTemplateUpload(name: name, version: save.version, digest: version.digest, changed: changed, orderTypeIdentifier: version.orderTypeIdentifier)
    }

    /// Every stored order template with its current version and whether its orders can be signed here.
    public func list() async throws -> OrderTemplateList {
        let statuses = try await statuses()
        var entries: [OrderTemplateList.Entry] = []
        for (name, version) in try await store.currentOrderTemplateVersions().sorted(by: { $0.key < $1.key }) {
            let template = try await template(name, version: version)
            let reason = statuses["orders/\(name)"] ?? nil
            entries.append(OrderTemplateList.Entry(
                name: name, status: reason == nil ? .ready : .unavailable, version: version, orderTypeIdentifier: template.orderTypeIdentifier,
                reason: reason))
        }
        return OrderTemplateList(templates: entries)
    }

    /// The order template `name` with its history, `nil` when none is stored.
    public func details(ofTemplate name: String) async throws -> OrderTemplateDetails? {
        guard let entry = try await list().templates.first(where: { $0.name == name }) else { return nil }
        let orders = try await store.orderCountsByVersion(ofTemplate: name)
        let versions = try await store.orderTemplateVersions(name).map {
            OrderTemplateDetails.Version(version: $0.version, digest: $0.digest, storedBy: $0.storedBy, storedAt: $0.storedAt, orders: orders[$0.version] ?? 0)
        }
        return OrderTemplateDetails(
            name: name, currentVersion: entry.version, orderTypeIdentifier: entry.orderTypeIdentifier, status: entry.status, reason: entry.reason,
            versions: versions)
    }

    /// The files of version `version` of the order template `name`, `order.json` among them, or
    /// `nil` when there is no such version.
    public func files(ofTemplate name: String, version: Int64) async throws -> [TemplateSourceFile]? {
        guard let stored = try await store.orderTemplateVersion(name, version) else { return nil }
        return ([TemplateSourceFile(path: "order.json", bytes: Data(stored.document.utf8))] + stored.files.map { TemplateSourceFile(path: $0.key, bytes: $0.value) })
            .sorted { $0.path < $1.path }
    }

    /// The names of the stored order templates, sorted.
    public func templateNames() async throws -> [String] {
        try await store.currentOrderTemplateVersions().keys.sorted()
    }

    /// The current version of the template `name`, which new orders are made from.
    func currentTemplate(named name: String) async throws -> OrderTemplate {
        let current = try await store.currentOrderTemplateVersions()
        guard let version = current[name] else { throw OrderFailure.unknownTemplate(name, available: current.keys.sorted()) }
        return try await template(name, version: version)
    }

    /// The version of its template an order is signed with.
    func template(of order: StoredOrder) async throws -> OrderTemplate {
        guard order.templateVersion > 0 else {
            throw OrderFailure.unusableTemplate(
                order.template, reason: "the order was made before order templates were stored; start an instance whose templates folder holds orders/\(order.template)")
        }
        return try await template(order.template, version: order.templateVersion)
    }

    private func template(_ name: String, version: Int64) async throws -> OrderTemplate {
        let key = "\(name)\u{0}\(version)"
        if let template = versions.withLock({ $0[key] }) { return template }
        guard let stored = try await store.orderTemplateVersion(name, version) else {
            throw OrderFailure.unusableTemplate(name, reason: "version \(version) is not stored")
        }
        let template = try OrderTemplate(stored)
        versions.withLock { $0[key] = template }
        return template
    }

    /// Creates an order of `templateName`: its `order.json` with `patch` applied, the identifiers,
    /// web service, token and `updatedAt` set by the server (`createdAt` too when neither gives it).
    /// Every problem of the result is reported at once; nothing is stored unless it signs.
    public func create(template templateName: String, orderIdentifier: String?, patch: JSONObject, origin: WriteOrigin) async throws -> StoredOrder {
        try Self.refuseServerOwned(patch)
        let template = try await currentTemplate(named: templateName)
        let key = OrderKey(orderTypeIdentifier: template.orderTypeIdentifier, orderIdentifier: orderIdentifier ?? UUID().uuidString.lowercased())
        let now = Self.wholeSecond(store.clock.now())
        let token = SecureRandom.token(length: 32)
        guard case .object(var document) = JSONMergePatch.apply(.object(patch), to: .object(template.document)) else {
            preconditionFailure("an object patched by an object is an object")
        }
        document["orderTypeIdentifier"] = .string(key.orderTypeIdentifier)
        document["orderIdentifier"] = .string(key.orderIdentifier)
        if let webServiceURL {
            document["webServiceURL"] = .string(webServiceURL)
            document["authenticationToken"] = .string(token)
        } else {
            document["webServiceURL"] = nil
            document["authenticationToken"] = nil
        }
        document["updatedAt"] = .string(Self.timestamp(now))
        if document["createdAt"] == nil { document["createdAt"] = .string(Self.timestamp(now)) }
        let text = try checked(document, template: template, at: now)
        do {
            return try await store.createOrder(key, template: template.name, templateVersion: template.version, document: text, authenticationToken: token, lastModified: now, origin: origin)
        } catch WalletStoreError.orderExists {
            throw OrderFailure.exists(key.description)
        }
    }

    /// Applies `patch` to the order `key`: computed from the stored order, written only if no other
    /// change landed meanwhile (else computed again). A patch that changes nothing writes nothing
    /// (no event, no push). Answers the order as it is now and the pushes queued.
    ///
    /// With `expectedTag` (a form computed from the version with that tag) a change that landed since
    /// is not merged over: ``OrderFailure/changedSince(_:)``.
    public func update(_ key: OrderKey, patch: JSONObject, expectedTag: Int64? = nil, origin: WriteOrigin) async throws -> (order: StoredOrder, pushesQueued: Int) {
        try Self.refuseServerOwned(patch)
        return try await retryingLostRaces(key) {
            guard let current = try await store.order(key) else { throw OrderFailure.notFound(key.description) }
            if current.erasedAt != nil { throw OrderFailure.erased(key.description) }
            if let expectedTag, current.updateTag != expectedTag { throw OrderFailure.changedSince(key.description) }
            let before = try Self.object(current.document)
            guard case .object(let document) = JSONMergePatch.apply(.object(patch), to: .object(before)) else {
                preconditionFailure("an object patched by an object is an object")
            }
            if document == before { return .answered((current, 0)) }
            switch try await store.writeOrder(try await change(current, from: before, to: document, origin: origin)) {
            case .written(let order, let queued): return .answered((order, queued))
            case .conflict: return .lost
            case .notFound: throw OrderFailure.notFound(key.description)
            case .erased: throw OrderFailure.erased(key.description)
            }
        }
    }

    /// One read-compute-write of an order: its answer, or lost to a change that landed between
    /// its read and its write.
    enum RaceAttempt<T> {
        case answered(T)
        case lost
    }

    /// Runs `attempt` until it answers: after a lost race it reads and computes again, after a short
    /// random pause so the writers that lost together do not collide again in lockstep.
    /// ``OrderFailure/busy(_:)`` after ``updateAttempts`` lost races.
    func retryingLostRaces<T>(_ key: OrderKey, _ attempt: () async throws -> RaceAttempt<T>) async throws -> T {
        for round in 0..<Self.updateAttempts {
            if round > 0 { try await Task.sleep(for: .milliseconds(Int.random(in: 1...(4 * round)))) }
            if case .answered(let answer) = try await attempt() { return answer }
        }
        throw OrderFailure.busy(key.description)
    }

    /// The write of `document` over `current` (whose document is `before`): stamped with the next
    /// modification time, checked against its template and signed-ready, its changed keys named, and
    /// expecting `current`'s tag so a change that landed meanwhile is not overwritten.
    func change(_ current: StoredOrder, from before: JSONObject, to document: JSONObject, origin: WriteOrigin) async throws -> OrderChange {
        let template = try await template(of: current)
        let changes = Set(document.keys + before.keys).filter { document[$0] != before[$0] }.sorted()
        let modified = Self.nextModification(after: current.lastModified, now: store.clock.now())
        var document = document
        document["updatedAt"] = .string(Self.timestamp(modified))
        return OrderChange(
            key: current.key, expectedTag: current.updateTag, document: try checked(document, template: template, at: modified),
            lastModified: modified, changes: changes, origin: origin)
    }

    /// The order with `key`, or `nil`.
    public func order(_ key: OrderKey) async throws -> StoredOrder? {
        try await store.order(key)
    }

    /// The most recently changed orders, newest first.
    public func recent(template: String?, limit: Int) async throws -> [StoredOrder] {
        try await store.recentOrders(template: template, limit: limit)
    }

    /// The order with `key` if `token` is its `authenticationToken`, else `nil` (HTTP 401): compared
    /// in constant time, and compared when the order is missing too, so a wrong token and an unknown
    /// order look and take the same.
    public func authorizedOrder(_ key: OrderKey, token: String?) async throws -> StoredOrder? {
        let order = try await store.order(key)
        let matches = constantTimeEquals(token ?? "", order?.authenticationToken ?? "\u{0}missing")
        guard let order, token != nil, matches else { return nil }
        return order
    }

    /// The signed `.order` of the stored order (`application/vnd.apple.finance.order`), with the
    /// files of the template version it was made from.
    public func package(_ order: StoredOrder) async throws -> Data {
        let template = try await template(of: order)
        let (model, _) = try Order.decodeAll(JSONValue.parse(Data(order.document.utf8)))
        do {
            return try packager(for: order.key.orderTypeIdentifier).package(model, files: template.files, at: store.clock.now()).archive
        } catch let error as OrderPackageError {
            if case .invalidOrder(let issues) = error { throw OrderFailure.invalid(issues) }
            throw OrderFailure.cannotSign(order.key.orderTypeIdentifier, reason: "\(error)")
        }
    }

    /// The order as Wallet's order detail screen shows it (PNG). Drawing takes milliseconds of CPU:
    /// routes call it on the HTTP server's pool (`start: .inPool`), never on the cooperative pool.
    public func picture(_ order: StoredOrder, scale: Int, dark: Bool) async throws -> OrderPicture {
        let template = try await template(of: order)
        let (model, _) = try Order.decodeAll(JSONValue.parse(Data(order.document.utf8)))
        return try OrderPreviewer().render(model, files: template.files, options: OrderPreviewOptions(scale: scale, dark: dark))
    }

    /// Each order template (as `orders/<name>`) with the reason it cannot be used, or `nil` when its
    /// orders can be signed here: for `/readyz`, next to the pass templates. A folder the last import
    /// refused is named with its reason unless a stored version of it signs.
    public func statuses() async throws -> [String: String?] {
        var statuses: [String: String?] = [:]
        for (name, reason) in refusedFolders.withLock({ $0 }) { statuses["orders/\(name)"] = .some(reason) }
        for (name, version) in try await store.currentOrderTemplateVersions() {
            do {
                _ = try packager(for: try await template(name, version: version).orderTypeIdentifier)
                statuses["orders/\(name)"] = .some(nil)
            } catch {
                statuses["orders/\(name)"] = .some("\(error)")
            }
        }
        return statuses
    }

    /// The stored document as an object.
    public func document(_ order: StoredOrder) throws -> JSONObject {
        try Self.object(order.document)
    }

    /// The stored document without the keys only the server writes: what an editor may change.
    public func editableDocument(_ order: StoredOrder) throws -> JSONObject {
        var document = try Self.object(order.document)
        for key in Self.serverOwnedKeys { document[key] = nil }
        return document
    }

    /// The merge patch that turns the editable document `from` into `to` (server-owned keys in `to`
    /// are ignored), for editors that send a whole document.
    public static func patch(from source: JSONObject, to target: JSONObject) -> JSONObject {
        var target = target
        for key in serverOwnedKeys { target[key] = nil }
        return JSONMergePatch.diff(from: source, to: target)
    }

    // MARK: - The Orders web service's devices

    /// Registers a device (Wallet's `deviceIdentifier`) for the order's pushes.
    public func register(device: String, pushToken: String, for key: OrderKey) async throws -> Bool {
        try await store.registerOrderDevice(device, pushToken: pushToken, order: key) == .created
    }

    /// Removes a device's registration; whether there was one.
    @discardableResult
    public func unregister(device: String, from key: OrderKey) async throws -> Bool {
        try await store.unregisterOrderDevice(device, order: key)
    }

    /// The device's orders of a type changed since `since` (a tag the list gave before), or `nil`.
    public func changedOrders(device: String, orderTypeIdentifier: String, since: Int64?) async throws -> (identifiers: [String], lastModified: Int64)? {
        try await store.orderIdentifiers(deviceIdentifier: device, orderTypeIdentifier: orderTypeIdentifier, modifiedSince: since)
    }

    /// How many devices are registered for the order.
    public func registrationCount(_ key: OrderKey) async throws -> Int {
        try await store.orderRegistrationCount(for: key)
    }

    // MARK: - Checking

    /// Validates `document` as Wallet will (types, enumerations, dates, URLs, the files it names)
    /// and that this server can sign it; answers its text, keys sorted.
    func checked(_ document: JSONObject, template: OrderTemplate, at now: Date) throws -> String {
        let (model, decodingIssues): (Order, [ValidationIssue])
        do {
            (model, decodingIssues) = try Order.decodeAll(.object(document))
        } catch {
            throw OrderFailure.invalid([ValidationIssue(severity: .error, path: "", rule: "order.decoding", message: "\(error)")])
        }
        let errors = decodingIssues.filter { $0.severity == .error }
        do {
            _ = try packager(for: template.orderTypeIdentifier).validate(model, files: template.files, at: now)
        } catch let error as OrderPackageError {
            if case .invalidOrder(let issues) = error { throw OrderFailure.invalid(errors + issues) }
            throw OrderFailure.cannotSign(template.orderTypeIdentifier, reason: "\(error)")
        }
        if !errors.isEmpty { throw OrderFailure.invalid(errors) }
        return String(decoding: JSONValue.object(document).serialized(sortedKeys: true), as: UTF8.self)
    }

    private func packager(for orderTypeIdentifier: String) throws -> OrderPackager {
        if let packager = packagers.withLock({ $0[orderTypeIdentifier] }) { return packager }
        let packager: OrderPackager
        do {
            let identity = try identities.identity(forOrderTypeIdentifier: orderTypeIdentifier)
            let intermediate = try WWDRSelection.intermediate(for: identity.certificate, among: identities.intermediates(), at: Date())
            packager = try OrderPackager(identity: identity, intermediate: intermediate)
        } catch {
            throw OrderFailure.cannotSign(orderTypeIdentifier, reason: "\(error)")
        }
        packagers.withLock { $0[orderTypeIdentifier] = packager }
        return packager
    }

    private static func refuseServerOwned(_ patch: JSONObject) throws {
        if let key = patch.keys.first(where: serverOwnedKeys.contains) { throw OrderFailure.serverOwned(key) }
    }

    static func object(_ text: String) throws -> JSONObject {
        guard case .object(let object) = try JSONValue.parse(Data(text.utf8)) else {
            throw OrderFailure.invalid([ValidationIssue(severity: .error, path: "", rule: "order.stored", message: "the stored order is not a JSON object")])
        }
        return object
    }

    /// `date` rounded down to its second: `updatedAt` is written in whole seconds.
    static func wholeSecond(_ date: Date) -> Date { Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)) }

    /// The next `updatedAt`: now, but at least a second after `previous` — Apple asks it to
    /// increase, and `Last-Modified` compares whole seconds.
    static func nextModification(after previous: Date, now: Date) -> Date {
        max(wholeSecond(now), wholeSecond(previous).addingTimeInterval(1))
    }

    /// RFC 3339 in UTC, seconds precision: `2026-12-04T12:00:00Z`.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
