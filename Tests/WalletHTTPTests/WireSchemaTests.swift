import Foundation
import HTTPServer
import PassLint
import PassModel
import Testing
@testable import WalletCore
@testable import WalletHTTP
import WalletStore

/// Each wire value against its schema in `openapi-base.json`: the route encodes the value and
/// documents the schema, so if either changes alone, a client reading the document is misled.
@Suite("Wire values and their OpenAPI schemas")
struct WireSchemaTests {
    static let date = Date(timeIntervalSince1970: 1_800_000_000)

    /// Every relevance key, each member of its items set.
    static let relevance: JSONObject = [
        "locations": .array([.object(["latitude": .number(52.5), "longitude": .number(13.4), "altitude": .number(30), "relevantText": .string("Near")])]),
        "beacons": .array([.object(["proximityUUID": .string("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"), "major": .number(1), "minor": .number(2), "relevantText": .string("In")])]),
        "maxDistance": .number(100), "relevantDate": .string("2027-04-15T20:00:00+02:00"),
        "relevantDates": .array([.object(["startDate": .string("2027-04-15T20:00:00+02:00"), "endDate": .string("2027-04-15T23:00:00+02:00"), "date": .string("2027-04-15T20:00:00+02:00")])]),
        "expirationDate": .string("2027-05-01T00:00:00Z"),
    ]

    static func webhook(templates: [String]?, disabledReason: String?, previous: Date?) -> WebhookEndpointDetails {
        WebhookEndpointDetails(
            id: "whep_1", url: "https://crm.example/hooks", description: "CRM", types: ["pass.issued"], templates: templates,
            enabled: disabledReason == nil, disabledReason: disabledReason, createdAt: date, previousSecretValidUntil: previous)
    }

    /// Representative instances: between them every optional member is set once and absent once,
    /// so the check sees every member a type can write and the `null`s it writes.
    static let examples: [any WireValue] = [
        IssueResponse(passTypeIdentifier: "pass.example", serialNumber: "A-1", template: "loyalty", updateTag: "9007199254740993", downloadURL: "https://x.test/passes/p/A-1?expires=1&signature=s"),
        PassDetails(
            passTypeIdentifier: "pass.example", serialNumber: "A-1", template: "loyalty", data: .object(["points": .number(12)]),
            overrides: .object(["relevantDate": .string("2027-01-15T08:00:00Z")]), voided: false, updateTag: "3",
            lastModified: "Fri, 15 Jan 2027 08:00:00 GMT", registeredDevices: 2, downloadURL: "https://x.test/d"),
        HolderLink(
            url: "https://x.test/passes/p/A-1?expires=1&signature=s", passURL: "https://x.test/passes/p/A-1/pass.pkpass?expires=1&signature=s",
            pictureURL: "https://x.test/passes/p/A-1/picture.png?expires=1&signature=s&v=2", qrCodePNG: "https://x.test/passes/p/A-1/qr.png?expires=1&signature=s",
            qrCodeSVG: "https://x.test/passes/p/A-1/qr.svg?expires=1&signature=s", expiresAt: date, html: "<a href=\"https://x.test/p\">Add</a>"),
        UpdateResult(serialNumber: "A-1", changed: true, updateTag: "4", pushesQueued: 1, heldUntil: date),
        UpdateResult(serialNumber: "A-1", changed: false, updateTag: "4", pushesQueued: 0, heldUntil: nil),
        TemplateUpdateResult(matched: 3, changed: 2, held: 1, pushesQueued: 5),
        DeviceLogs(logs: [DeviceLogs.Entry(receivedAt: date, message: "Get pass task failed")]),
        PushQueued(pushesQueued: 2),
        EventPage(events: [
            Event(id: "evt_1", type: "pass.updated", occurredAt: date, passTypeIdentifier: "pass.example", serialNumber: "A-1",
                  template: "loyalty", actor: "api", data: ["changes": .array([.string("data.points")])]),
            Event(id: "evt_2", type: "push.failed", occurredAt: date, passTypeIdentifier: nil, serialNumber: nil, template: nil,
                  actor: "apns", data: ["reason": .string("TooManyRequests")]),
        ], next: "2-2", hasMore: true),
        EventPage(events: [], next: "0-0", hasMore: false),
        AuditPage(entries: [
            AuditRecord(id: "aud_2", occurredAt: date, actor: "key k1a2b3c4d5e6", source: "cli", address: "203.0.113.9", action: "pass.update",
                        target: "pass pass.example/A-1", changes: ["data.points"]),
            AuditRecord(id: "aud_1", occurredAt: date, actor: "template v2", source: "system", address: nil, action: "pass.update",
                        target: "pass pass.example/A-1", changes: ["templateVersion"]),
        ], next: "aud_1"),
        AuditPage(entries: [], next: nil),
        AnalyticsReport(
            template: "loyalty", from: "2026-11-30", to: "2026-12-06", interval: .week,
            totals: AnalyticsReport.Counts(issued: 3, installed: 2, removed: 1, updated: 4, devicesAdded: 3, devicesRemoved: 1, pushesSent: 5, pushesFailed: 2, pageViews: 7, downloads: 2),
            activePasses: 1, devices: 2,
            periods: [AnalyticsReport.Period(start: "2026-11-30", counts: AnalyticsReport.Counts(issued: 3), activePasses: 1, devices: 2)],
            pushFailuresByReason: ["TooManyRequests": 1, "Unregistered": 1],
            versions: [AnalyticsReport.VersionMark(template: "loyalty", version: 2, day: "2026-12-02")]),
        AnalyticsReport(
            template: nil, from: "2026-12-01", to: "2026-12-01", interval: .day, totals: AnalyticsReport.Counts(), activePasses: 0, devices: 0,
            periods: [], pushFailuresByReason: [:], versions: []),
        WebhookCreated(webhook: webhook(templates: ["loyalty"], disabledReason: nil, previous: date), secret: "whsec_abc"),
        WebhookList(webhooks: [webhook(templates: nil, disabledReason: "the endpoint answered 410 Gone", previous: nil)]),
        WebhookSecret(secret: "whsec_def", previousValidUntil: date),
        webhook(templates: ["loyalty", "coupon"], disabledReason: nil, previous: nil),
        WebhookReplayResult(queued: 3),
        WebhookDeliveryList(deliveries: [
            WebhookDeliveryList.Delivery(
                id: "whd_1", event: "evt_1", type: "pass.issued", state: "delivered", attempts: 1, nextAttemptAt: date, lastStatus: 200,
                lastError: nil, latencyMilliseconds: 12, responseExcerpt: "ok", createdAt: date, settledAt: date),
            WebhookDeliveryList.Delivery(
                id: "whd_2", event: "evt_2", type: nil, state: "pending", attempts: 2, nextAttemptAt: date, lastStatus: nil,
                lastError: "timed out", latencyMilliseconds: nil, responseExcerpt: nil, createdAt: date, settledAt: nil),
        ]),
        WebhookRequest(url: "https://crm.example/hooks", description: "CRM", types: ["pass.issued"], templates: ["loyalty"]),
        APIKeyRequest(name: "crm", scopes: ["passes:read", "passes:issue"], templates: ["loyalty"], expiresAt: date),
        APIKeyCreated(key: APIKeyDetails(
            id: "abcdefghijkl", name: "crm", scopes: ["passes:read"], templates: ["loyalty"], state: "active", expiresAt: date, createdAt: date,
            revokedAt: nil, lastUsedAt: nil, lastUsedAddress: nil), secret: "pw_abcdefghijkl_" + String(repeating: "A", count: 38)),
        APIKeyDetails(
            id: "yzabcdefghij", name: "agency", scopes: ["passes:read"], templates: ["coupon"], state: "expired", expiresAt: date, createdAt: date,
            revokedAt: nil, lastUsedAt: date, lastUsedAddress: "::1"),
        APIKeyList(keys: [APIKeyDetails(
            id: "mnopqrstuvwx", name: "ci", scopes: ["templates:write"], templates: nil, state: "revoked", expiresAt: nil, createdAt: date,
            revokedAt: date, lastUsedAt: date, lastUsedAddress: "10.0.0.7")]),
        BulkJobList(jobs: [
            BulkJobDetails(
                id: "job_1", template: "loyalty", format: "jsonl", validation: "each", state: "issuing", records: 100, issued: 40, failed: 2,
                pending: 58, ratePerSecond: 800.5, etaSeconds: 1, bundleParts: 4, createdAt: date, startedAt: date, finishedAt: nil, actor: "api"),
            BulkJobDetails(
                id: "job_2", template: "loyalty", format: "csv", validation: "first", state: "receiving", records: 0, issued: 0, failed: 0,
                pending: 0, ratePerSecond: nil, etaSeconds: nil, bundleParts: 0, createdAt: date, startedAt: nil, finishedAt: date, actor: "api"),
        ]),
        BulkJobDetails(
            id: "job_3", template: "loyalty", format: "csv", validation: "first", state: "completed", records: 1, issued: 1, failed: 0,
            pending: 0, ratePerSecond: 2, etaSeconds: nil, bundleParts: 1, createdAt: date, startedAt: date, finishedAt: date, actor: "api"),
        BulkResultLine(line: 2, serialNumber: "A-1", state: "issued", downloadURL: "https://x.test/d", bundlePart: 1, errors: nil),
        BulkResultLine(line: 3, serialNumber: nil, state: "failed", downloadURL: nil, bundlePart: nil, errors: [.object(["path": .string("data.member.name"), "message": .string("missing"), "rule": .string("r")])]),
        WebhookChange(members: ["url": .string("https://crm.example/v2"), "description": .string("x"), "types": .array([.string("*")]),
                                "templates": .null, "enabled": .bool(true)]),
        WebhookRotation(overlapSeconds: 3600),
        WebhookReplay(since: date, event: "evt_3"),
        PushStats(
            queued: 4, inFlight: 1, oldestPendingSeconds: 30, sent: 10, failuresByReason: ["BadDeviceToken": 2],
            pendingByLastError: ["TooManyRequests": 1], stoppedIdentities: ["pass.example": "403 Forbidden"], ratePerSecond: 100, etaSeconds: 1),
        PushStats(
            queued: 0, inFlight: 0, oldestPendingSeconds: nil, sent: 0, failuresByReason: [:], pendingByLastError: [:],
            stoppedIdentities: [:], ratePerSecond: nil, etaSeconds: nil),
        TemplateList(templates: [
            TemplateList.Entry(name: "loyalty", status: .ready, version: 2, passTypeIdentifier: "pass.example", teamIdentifier: "TEAM", placeholders: ["points"]),
            TemplateList.Entry(name: "broken", status: .unavailable, reason: "no identity for pass.other"),
        ]),
        TemplateDetails(
            name: "loyalty", currentVersion: 3, passes: 5, passesBehind: 1, status: .unavailable, reason: "no identity",
            versions: [
                TemplateDetails.Version(version: 1, digest: "ab", uploadedBy: "admin API", uploadedAt: date),
                TemplateDetails.Version(version: 3, digest: "ab", uploadedBy: "admin API (rollback)", uploadedAt: date, restores: 1),
            ]),
        TemplateUpload(
            name: "loyalty", version: 2, digest: "cd", changed: true, passesAffected: 4,
            warnings: [TemplateFinding(Finding(rule: "contrast.label", severity: .warning, location: "pass.json labelColor", before: "a", after: "b", effect: "hard to read"))]),
        TemplateFinding(Finding(rule: "image.size", severity: .error, location: "logo.png", before: "a", after: "b", effect: "refused")),
        TemplateFinding(message: "left out: .DS_Store"),
        OrderTemplateList(templates: [
            OrderTemplateList.Entry(name: "shop", status: .ready, version: 2, orderTypeIdentifier: "order.example"),
            OrderTemplateList.Entry(name: "gift", status: .unavailable, version: 1, orderTypeIdentifier: "order.other", reason: "no identity"),
        ]),
        OrderTemplateUpload(name: "shop", version: 2, digest: "ef", changed: true, orderTypeIdentifier: "order.example"),
        OrderTemplateDetails(
            name: "shop", currentVersion: 2, orderTypeIdentifier: "order.example", status: .unavailable, reason: "no identity",
            versions: [OrderTemplateDetails.Version(version: 2, digest: "ef", storedBy: "admin API", storedAt: date, orders: 3)]),
        OrderTemplateDetails(name: "gift", currentVersion: 1, orderTypeIdentifier: "order.example", status: .ready, versions: []),
        IssueRequest(
            template: "loyalty", serialNumber: "A-1", data: ["points": .number(12)],
            relevance: relevance),
        IssueRequest(template: "loyalty"),
        HolderLookup(field: "member.id", value: "BL-7731-0001", template: "loyalty"),
        HolderLookup(field: "email", value: "ada@example.test"),
        OrderCreateRequest(template: "shop", orderIdentifier: "ORD-1", order: ["orderNumber": .string("1001"), "status": .string("open")]),
        OrderCreateRequest(template: "shop", order: [:]),
        OrderDetails(
            orderTypeIdentifier: "order.example", orderIdentifier: "ORD-1", template: "shop", templateVersion: 2, webServiceURL: "https://x.test/orders",
            authenticationToken: "0123456789abcdef0123456789abcdef", updatedAt: "2027-01-15T08:00:00Z", updateTag: "7", registeredDevices: 1,
            pushesQueued: 1, order: ["status": .string("open")]),
        OrderList(orders: [OrderList.Entry(orderTypeIdentifier: "order.example", orderIdentifier: "ORD-1", template: "shop", status: "open", updatedAt: "2027-01-15T08:00:00Z")]),
        ErasureResult(erased: [ErasureResult.Pass(passTypeIdentifier: "pass.example", serialNumber: "A-1", alreadyErased: false, pushesQueued: 2)]),
        ErasureResult(erased: []),
        OrderExport(exportedAt: date, orders: [
            OrderExport.OrderRecord(
                orderTypeIdentifier: "order.example", orderIdentifier: "ORD-1", template: "shop", order: .object(["status": .string("open")]),
                createdAt: date, updatedAt: date, erasedAt: date, devices: [OrderExport.Device(deviceIdentifier: "phone-1", registeredAt: date)],
                events: [Event(id: "evt_2", type: "order.created", occurredAt: date, passTypeIdentifier: nil, serialNumber: nil,
                               template: "shop", actor: "api", data: ["orderIdentifier": .string("ORD-1")])],
                audit: [AuditRecord(id: "aud_2", occurredAt: date, actor: "api", source: "api", address: nil, action: "order.create",
                                    target: "order order.example/ORD-1", changes: [])]),
        ]),
        OrderErasureResult(erased: [OrderErasureResult.Order(orderTypeIdentifier: "order.example", orderIdentifier: "ORD-1", alreadyErased: true, pushesQueued: 0)]),
        HolderExport(exportedAt: date, passes: [
            HolderExport.PassRecord(
                passTypeIdentifier: "pass.example", serialNumber: "A-1", template: "loyalty", templateVersion: 2, data: .object(["points": .number(12)]),
                overrides: .object([:]), voided: false, createdAt: date, updatedAt: date, erasedAt: nil,
                history: [HolderExport.Change(changedAt: date, source: "key k1a2b3c4d5e6", changes: ["data.points"])],
                heldChange: HolderExport.HeldChange(releaseAt: date, edits: .array([.object(["data": .object(["points": .number(13)])])])),
                devices: [HolderExport.Device(deviceLibraryIdentifier: "device-1", registeredAt: date)],
                events: [Event(id: "evt_1", type: "pass.issued", occurredAt: date, passTypeIdentifier: "pass.example", serialNumber: "A-1",
                               template: "loyalty", actor: "api", data: ["templateVersion": .number(2)])],
                audit: [AuditRecord(id: "aud_1", occurredAt: date, actor: "api", source: "api", address: nil, action: "pass.issue",
                                    target: "pass pass.example/A-1", changes: ["data.points"])]),
            HolderExport.PassRecord(
                passTypeIdentifier: "pass.example", serialNumber: "A-2", template: "loyalty", templateVersion: 2, data: .object(["points": .number(0)]),
                overrides: .object([:]), voided: true, createdAt: date, updatedAt: date, erasedAt: date, history: [], heldChange: nil, devices: [],
                events: [], audit: []),
        ]),
        PassChangeRequest(
            data: ["points": .null], voided: true,
            relevance: relevance),
        PassChangeRequest(voided: false),
        TemplateRollback(version: 2),
        PreviewRequest(record: ["points": .number(12)]),
        PreviewRequest(),
        {
            var finding = Finding(rule: "contrast.label", severity: .advice, location: "pass.json labelColor", before: "a", after: "b", effect: "c",
                                  fix: .colour(key: "labelColor", value: "rgb(0, 0, 0)"))
            finding.pictures = Finding.Pictures(before: "before.png", after: "after.png")
            return finding
        }(),
    ]

    static var schemaNames: [String] { Set(examples.map { type(of: $0).schemaName }).sorted() }

    @Test("every wire value encodes to what its schema describes, and uses every member the schema has", arguments: schemaNames)
    func matchesSchema(_ name: String) throws {
        let schemas = try #require(try OpenAPIGenerator.base()["components"]?.members?["schemas"]?.members)
        var checker = SchemaChecker(schemas: schemas)
        for example in Self.examples where type(of: example).schemaName == name {
            checker.check(try WireJSON.tree(example), .object(["$ref": .string("#/components/schemas/\(name)")]), at: name, path: "$")
        }
        #expect(checker.problems.isEmpty, "\(name) and its schema differ:\n\(checker.problems.joined(separator: "\n"))")
        #expect(checker.declared.values.contains { !$0.isEmpty }, "the schema \(name) declares members")
        for (location, members) in checker.declared.sorted(by: { $0.key < $1.key }) {
            let unused = members.subtracting(checker.seen[location] ?? [])
            #expect(unused.isEmpty, "\(location) declares \(unused.sorted()), which no \(name) example writes: the type lost them, or an example lacks them")
        }
    }

    @Test("every wire value decodes back to itself, as the CLI reads it", arguments: examples.indices)
    func roundTrip(_ index: Int) throws {
        func check<Value: WireValue>(_ value: Value) throws {
            #expect(try WireJSON.decoder().decode(Value.self, from: WireJSON.encode(value)) == value)
        }
        try check(Self.examples[index])
    }

    @Test("bodies are written as the hand-built trees were: sorted keys, / unescaped, integers, null for an absent hold")
    func bytes() throws {
        let update = UpdateResult(serialNumber: "a/b", changed: true, updateTag: "9007199254740993", pushesQueued: 1, heldUntil: nil)
        #expect(String(decoding: try WireJSON.encode(update), as: UTF8.self)
            == #"{"changed":true,"heldUntil":null,"pushesQueued":1,"serialNumber":"a/b","updateTag":"9007199254740993"}"#)
        let held = UpdateResult(serialNumber: "a", changed: true, updateTag: "1", pushesQueued: 0, heldUntil: Self.date.addingTimeInterval(0.75))
        #expect(try WireJSON.tree(held).members?["heldUntil"] == .string(Self.date.formatted(.iso8601)), "ISO 8601 in UTC, whole seconds")
        // A stored record goes out as JSONValue wrote it: key order, escapes, numbers (-0 as 0, 1e+20, 0.1).
        let record: JSONValue = .object([
            "zeta": .number(-0.0), "Alpha": .array([.number(1e20), .number(0.1), .number(1e15), .null]), "é": .string("tab\t\u{1}\"/\\"),
            "a10": .object(["b": .bool(false), "a": .string("\u{2028}")]), "a9": .number(-5),
        ])
        let details = PassDetails(
            passTypeIdentifier: "p", serialNumber: "s", template: "t", data: record, overrides: .object([:]), voided: true,
            updateTag: "1", lastModified: "x", registeredDevices: 0, downloadURL: "https://x.test/a/b")
        let expected = JSONValue.object([
            "passTypeIdentifier": .string("p"), "serialNumber": .string("s"), "template": .string("t"), "data": record,
            "overrides": .object([:]), "voided": .bool(true), "updateTag": .string("1"), "lastModified": .string("x"),
            "registeredDevices": .number(0), "downloadURL": .string("https://x.test/a/b"),
        ]).serialized(sortedKeys: true)
        #expect(String(decoding: try WireJSON.encode(details), as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }

    @Test("the document's event types are every type the log appends, and no other")
    func eventTypesAreEveryType() throws {
        let schemas = try #require(try OpenAPIGenerator.base()["components"]?.members?["schemas"]?.members)
        guard case .array(let listed)? = schemas["EventType"]?.members?["enum"] else { Issue.record("EventType has no enum"); return }
        #expect(listed.compactMap { if case .string(let name) = $0 { name } else { nil } } == WalletEventType.allCases.map(\.rawValue))
    }

    @Test("every JSON body an admin route takes or answers is a wire value")
    func routesUseWireValues() async throws {
        // Shapes not built by the admin API's handlers: the Wallet protocol's own bodies, the
        // operations endpoints, the lint findings (an array of Finding, checked above), the Orders
        // web service's bodies, and an order's merge patch (Apple's `order.json`, checked by OrderModel).
        let elsewhere: Set<String> = [
            "SerialNumbers", "LogEntries", "PushToken", "Personalization", "Health", "Readiness", "OpenAPIDocument", "Findings",
            "OrderIdentifiers", "OrderLogEntries", "OrderPatch",
        ]
        let typed = Set(Self.schemaNames)
        try await withService { server in
            for route in server.service.routes {
                if let body = route.requestBody, body.contentType == "application/json", !elsewhere.contains(body.schema) {
                    #expect(typed.contains(body.schema), "\(route.method) \(route.path) takes \(body.schema), which has no wire value here")
                }
                for response in route.responses where (200..<300).contains(response.status.code) {
                    for body in response.bodies where body.contentType == "application/json" && !elsewhere.contains(body.schema) {
                        #expect(typed.contains(body.schema), "\(route.method) \(route.path) answers \(body.schema), which has no wire value here")
                    }
                }
            }
        }
    }
}

/// Checks a JSON value against the subset of JSON Schema `openapi-base.json` uses (`$ref`, `allOf`,
/// `type`, `enum`, `required`, `properties`, `additionalProperties`, `items`), and records, per
/// schema location, the members declared and the members seen.
///
/// Stricter than JSON Schema on purpose: a member an object schema with `properties` does not
/// declare is a problem unless `additionalProperties` allows it, so a new member of a type cannot
/// go out undocumented.
struct SchemaChecker {
    let schemas: JSONObject
    var problems: [String] = []
    var declared: [String: Set<String>] = [:]
    var seen: [String: Set<String>] = [:]

    mutating func check(_ value: JSONValue, _ schema: JSONValue, at location: String, path: String) {
        guard case .object(let schema) = schema else { return }
        if case .string(let reference)? = schema["$ref"] {
            let name = String(reference.split(separator: "/").last ?? "")
            guard let target = schemas[name] else { return problems.append("\(path): $ref \(reference) does not resolve") }
            return check(value, target, at: name, path: path)
        }
        if case .array(let parts)? = schema["allOf"] {
            for (index, part) in parts.enumerated() { check(value, part, at: "\(location)/allOf[\(index)]", path: path) }
        }
        let types: [String] = switch schema["type"] {
        case .string(let type)?: [type]
        case .array(let list)?: list.compactMap { if case .string(let type) = $0 { type } else { nil } }
        default: []
        }
        if !types.isEmpty, !types.contains(where: Self.kinds(of: value).contains) {
            problems.append("\(path): \(value.kind), the schema says \(types.joined(separator: " or "))")
        }
        if case .array(let allowed)? = schema["enum"], !allowed.contains(value) {
            problems.append("\(path): \(value) is not one of the schema's enum")
        }
        switch value {
        case .object(let object):
            if case .array(let required)? = schema["required"] {
                for case .string(let key) in required where object[key] == nil { problems.append("\(path): required member \(key) is missing") }
            }
            let properties = schema["properties"]?.members
            if let properties { declared[location, default: []].formUnion(properties.keys) }
            seen[location, default: []].formUnion(object.keys)
            for (key, member) in object.entries {
                if let property = properties?[key] {
                    check(member, property, at: "\(location)/\(key)", path: "\(path).\(key)")
                } else if case .object? = schema["additionalProperties"] {
                    check(member, schema["additionalProperties"]!, at: "\(location)/*", path: "\(path).\(key)")
                } else if properties != nil, schema["additionalProperties"] != .bool(true) {
                    problems.append("\(path): member \(key) is not in the schema")
                }
            }
        case .array(let items):
            if let itemSchema = schema["items"] {
                for (index, item) in items.enumerated() { check(item, itemSchema, at: "\(location)[]", path: "\(path)[\(index)]") }
            }
        default: break
        }
    }

    /// The JSON Schema types a value has (an integral number is both `integer` and `number`).
    static func kinds(of value: JSONValue) -> [String] {
        switch value {
        case .null: ["null"]
        case .bool: ["boolean"]
        case .number(let number): number.rounded() == number ? ["integer", "number"] : ["number"]
        case .string: ["string"]
        case .array: ["array"]
        case .object: ["object"]
        }
    }
}

extension JSONValue {
    /// The members of an object, `nil` for any other value.
    fileprivate var members: JSONObject? { if case .object(let object) = self { object } else { nil } }
}
