import Foundation
import PasswrightTesting
import Testing
import ZipArchive

/// Order templates live in the database as versions, as pass templates do: an order is signed with
/// the files of the version it was made from, whatever folder an instance was started with, and a
/// changed folder (imported at start or on `SIGHUP`) is a new version for the orders made after it.
@Suite(.timeLimit(.minutes(3))) struct OrderTemplateVersionTests {
    static let orderType = ThrowawayPKI.orderType

    static func create(_ server: TestService, _ identifier: String) async throws {
        let created = try await server.api("POST", "/api/v1/orders", json: [
            "template": "shop", "orderIdentifier": .string(identifier), "order": ["orderNumber": "1001", "status": "open"],
        ])
        try #require(created.status == 201, "\(created)")
    }

    /// The logo inside the order's signed package, as the API serves it.
    static func logo(_ server: TestService, _ identifier: String) async throws -> Data {
        let response = try await server.api("GET", "/api/v1/orders/\(orderType)/\(identifier)/order")
        try #require(response.status == 200, "\(response)")
        return try ZipReader(data: response.body).data(for: "logo.png")
    }

    @Test("an order keeps the files it was made with; a changed folder is a new version; an instance without the folder signs the same", arguments: Engine.selected)
    func ordersKeepTheirVersionOnEveryInstance(engine: Engine) async throws {
        try await withScratch { scratch in
            let templates = scratch.appendingPathComponent("Templates"), bare = scratch.appendingPathComponent("NoOrders")
            try FileManager.default.copyItem(at: Samples.templatesFolder, to: templates)
            try FileManager.default.createDirectory(at: bare, withIntermediateDirectories: true)
            let logo = templates.appendingPathComponent("orders/shop/logo.png")
            let original = try Data(contentsOf: logo)
            let replacement = try Data(contentsOf: templates.appendingPathComponent("orders/shop/socks.png"))
            try #require(original != replacement)
            try await engine.withLocation { database in
                try await withService(on: database, templates: templates) { server in
                    try await Self.create(server, "ORD-V1")
                    try replacement.write(to: logo)
                    try await server.service.importTemplateFolders()  // as SIGHUP does
                    try await server.service.importTemplateFolders()  // unchanged since: no version more
                    try await Self.create(server, "ORD-V2")
                    #expect(try await Self.logo(server, "ORD-V1") == original, "the order made before keeps its logo")
                    #expect(try await Self.logo(server, "ORD-V2") == replacement)
                    #expect(try await server.api("GET", "/api/v1/orders/\(Self.orderType)/ORD-V1").json()["templateVersion"] == 1)
                    #expect(try await server.api("GET", "/api/v1/orders/\(Self.orderType)/ORD-V2").json()["templateVersion"] == 2)

                    // A change to the older order is signed with its own version still.
                    #expect(try await server.api("PATCH", "/api/v1/orders/\(Self.orderType)/ORD-V1", json: ["status": "completed"]).status == 200)
                    #expect(try await Self.logo(server, "ORD-V1") == original)

                    let audit = try await server.api("GET", "/api/v1/audit?action=order-template.publish").json()
                    #expect((audit["entries"].array ?? []).map { $0["changes"][0].string } == ["version 2", "version 1"], "\(audit)")

                    // A folder that cannot be used is named by /readyz while no version of it is stored;
                    // one whose stored version signs is not (that version stays current).
                    let broken = templates.appendingPathComponent("orders/broken")
                    try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
                    try Data(#"{"merchant": {}}"#.utf8).write(to: broken.appendingPathComponent("order.json"))
                    try Data(#"{"merchant": {}}"#.utf8).write(to: templates.appendingPathComponent("orders/shop/order.json"))
                    try await server.service.importTemplateFolders()
                    let ready = try await server.client.send("GET", "/readyz").json()
                    #expect(ready["unavailableTemplates"]["orders/broken"].string?.contains("orderTypeIdentifier") == true, "\(ready)")
                    #expect(ready["unavailableTemplates"]["orders/shop"] == .null, "\(ready)")
                    #expect(try await Self.logo(server, "ORD-V2") == replacement, "the stored version still signs")
                }
                // Another instance, started with no order template folder at all, signs both orders
                // from the database and makes new ones from the current version.
                try await withService(on: database, templates: bare) { other in
                    #expect(try await Self.logo(other, "ORD-V1") == original)
                    #expect(try await Self.logo(other, "ORD-V2") == replacement)
                    try await Self.create(other, "ORD-V3")
                    #expect(try await Self.logo(other, "ORD-V3") == replacement)
                    // Each version's orders: ORD-V2 and ORD-V3 on version 2, ORD-V1 on version 1.
                    let details = try await other.api("GET", "/api/v1/order-templates/shop").json()
                    #expect((details["versions"].array ?? []).map { [$0["version"].number ?? 0, $0["orders"].number ?? -1] } == [[2, 2], [1, 1]], "\(details)")
                    let ready = try await other.client.send("GET", "/readyz")
                    #expect(ready.status == 200, "\(ready)")
                }
            }
        }
    }

    /// The sample order template's files as a zip, `logo.png` replaced by `logo` when given and
    /// `order.json` by `document`.
    static func archive(logo: Data? = nil, document: Data? = nil, leaving left: String? = nil) throws -> Data {
        let folder = Samples.templatesFolder.appendingPathComponent("orders/shop")
        var writer = ZipWriter()
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name != left {
            var bytes = try Data(contentsOf: folder.appendingPathComponent(name))
            if name == "logo.png", let logo { bytes = logo }
            if name == "order.json", let document { bytes = document }
            try writer.add(path: name, data: bytes, compression: .deflate)
        }
        return try writer.finish()
    }

    static func upload(_ server: TestService, _ name: String, _ archive: Data) async throws -> RawResponse {
        try await server.client.send(
            "PUT", "/api/v1/order-templates/\(name)", headers: [("Authorization", "Bearer \(server.adminToken)"), ("Content-Type", "application/zip")],
            body: archive)
    }

    @Test("an upload is a new version for new orders; the same files again store nothing; a folder without an order type is refused", arguments: Engine.selected)
    func uploadsAreVersionsToo(engine: Engine) async throws {
        let socks = try Data(contentsOf: Samples.templatesFolder.appendingPathComponent("orders/shop/socks.png"))
        try await withService(engine: engine) { server in
            try await Self.create(server, "ORD-U1")
            let original = try await Self.logo(server, "ORD-U1")

            let changed = try await Self.upload(server, "shop", try Self.archive(logo: socks))
            #expect(changed.status == 200, "\(changed)")
            #expect(try changed.json()["version"] == 2 && changed.json()["changed"] == true, "\(changed)")
            #expect(try changed.json()["orderTypeIdentifier"].string == Self.orderType)
            let again = try await Self.upload(server, "shop", try Self.archive(logo: socks))
            #expect(try again.status == 200 && again.json()["version"] == 2 && again.json()["changed"] == false, "\(again)")
            try await Self.create(server, "ORD-U2")
            #expect(try await Self.logo(server, "ORD-U1") == original)
            #expect(try await Self.logo(server, "ORD-U2") == socks)

            // An instance restarted with the older folder (the sample's, version 1) does not undo the upload.
            try await server.service.importTemplateFolders()
            #expect(try await server.api("GET", "/api/v1/order-templates").json()["templates"][0]["version"] == 2)

            // The history, and each version's files as uploaded.
            let details = try await server.api("GET", "/api/v1/order-templates/shop").json()
            #expect(details["currentVersion"] == 2 && (details["versions"].array ?? []).map { $0["version"].number ?? 0 } == [2, 1], "\(details)")
            #expect(details["versions"][1]["storedBy"].string?.hasPrefix("folder ") == true && details["versions"][0]["storedBy"].string != details["versions"][1]["storedBy"].string)
            let two = try await server.api("GET", "/api/v1/order-templates/shop/versions/2")
            #expect(two.status == 200 && two.header("Content-Type") == "application/zip")
            #expect(try ZipReader(data: two.body).data(for: "logo.png") == socks)
            #expect(try ZipReader(data: two.body).data(for: "order.json") == Data(contentsOf: Samples.templatesFolder.appendingPathComponent("orders/shop/order.json")))
            #expect(try await server.api("GET", "/api/v1/order-templates/shop/versions/3").status == 404)
            #expect(try await server.api("GET", "/api/v1/order-templates/nothing").status == 404)

            let gift = try await Self.upload(server, "gift", try Self.archive())
            #expect(try gift.status == 201 && gift.json()["version"] == 1, "\(gift)")
            let list = try await server.api("GET", "/api/v1/order-templates").json()
            #expect((list["templates"].array ?? []).map { "\($0["name"].string ?? "") \($0["version"].number ?? 0) \($0["status"].string ?? "")" } == [
                "gift 1.0 ready", "shop 2.0 ready",
            ], "\(list)")

            let untyped = try await Self.upload(server, "shop", try Self.archive(document: Data(#"{"merchant": {}}"#.utf8)))
            #expect(untyped.status == 422 && untyped.text.contains("orderTypeIdentifier"), "\(untyped)")
            let without = try await Self.upload(server, "shop", try Self.archive(leaving: "order.json"))
            #expect(without.status == 422 && without.text.contains("order.json"), "\(without)")
            let notZip = try await Self.upload(server, "shop", Data("not a zip".utf8))
            #expect(notZip.status == 400, "\(notZip)")
            #expect(try await server.api("GET", "/api/v1/order-templates").json()["templates"][1]["version"] == 2, "nothing refused was stored")
        }
    }
}
