import Foundation
import Locking
import OrderModel
import OrderPackage
import OrderPreview
import PassModel
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
    /// The order templates, read from the templates folder at start.
    public let templates: [String: OrderTemplate]
    /// Template folders that could not be used, and why (logged at start).
    public let unusableTemplates: [String: String]
    /// One packager per order type, made on first use (it holds the prepared signer).
    private let packagers = Locked<[String: OrderPackager]>([:])
    /// Keys only the server writes: identities, the web service and its token, the change clock.
    static let serverOwnedKeys: Set<String> = ["orderTypeIdentifier", "orderIdentifier", "webServiceURL", "authenticationToken", "updatedAt"]
    /// Attempts of an update whose order keeps changing under it before it answers busy: the passes'
    /// bound (each round at least one racing writer lands, so this many writers racing all land).
    static let updateAttempts = PassWriter.defaultMaximumAttempts

    init(store: WalletStore, identities: IdentityDirectory, templatesDirectory: URL?, webServiceURL: String?) {
        self.store = store
        self.identities = identities
        self.webServiceURL = webServiceURL
        let loaded = templatesDirectory.map(OrderTemplate.loadAll(in:)) ?? (templates: [:], unusable: [:])
        templates = loaded.templates
        unusableTemplates = loaded.unusable
    }

    /// The order types of the templates, whose devices the push worker must reach.
    public var orderTypeIdentifiers: Set<String> { Set(templates.values.map(\.orderTypeIdentifier)) }

    /// Creates an order of `templateName`: its `order.json` with `patch` applied, the identifiers,
    /// web service, token and `updatedAt` set by the server (`createdAt` too when neither gives it).
    /// Every problem of the result is reported at once; nothing is stored unless it signs.
    public func create(template templateName: String, orderIdentifier: String?, patch: JSONObject, origin: WriteOrigin) async throws -> StoredOrder {
        guard let template = templates[templateName] else { throw OrderFailure.unknownTemplate(templateName, available: templates.keys.sorted()) }
        try Self.refuseServerOwned(patch)
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
            return try await store.createOrder(key, template: template.name, document: text, authenticationToken: token, lastModified: now, origin: origin)
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
            switch try await store.writeOrder(try change(current, from: before, to: document, origin: origin)) {
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
    func change(_ current: StoredOrder, from before: JSONObject, to document: JSONObject, origin: WriteOrigin) throws -> OrderChange {
        guard let template = templates[current.template] else { throw OrderFailure.unknownTemplate(current.template, available: templates.keys.sorted()) }
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

    /// The signed `.order` of the stored order (`application/vnd.apple.finance.order`).
    public func package(_ order: StoredOrder) throws -> Data {
        guard let template = templates[order.template] else {
            throw OrderFailure.unusableTemplate(order.template, reason: "its folder is no longer under <templates>/orders/ on this instance")
        }
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
    public func picture(_ order: StoredOrder, scale: Int, dark: Bool) throws -> OrderPicture {
        guard let template = templates[order.template] else {
            throw OrderFailure.unusableTemplate(order.template, reason: "its folder is no longer under <templates>/orders/ on this instance")
        }
        let (model, _) = try Order.decodeAll(JSONValue.parse(Data(order.document.utf8)))
        return try OrderPreviewer().render(model, files: template.files, options: OrderPreviewOptions(scale: scale, dark: dark))
    }

    /// Each order template (as `orders/<name>`) with the reason it cannot be used, or `nil` when its
    /// orders can be signed here: for `/readyz`, next to the pass templates.
    public func statuses() -> [String: String?] {
        var statuses: [String: String?] = [:]
        for (name, reason) in unusableTemplates { statuses["orders/\(name)"] = .some(reason) }
        for (name, template) in templates {
            do {
                _ = try packager(for: template.orderTypeIdentifier)
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
