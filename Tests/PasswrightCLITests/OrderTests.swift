import Foundation
import PasswrightTesting
import Testing
import ZipArchive

/// Orders through the command line, as a user runs it: `certs dev --order-type-id` makes the
/// identity, `build ORDER_DIR` signs the folder into an `.order` that `verify` and the real
/// `openssl cms -verify` accept, and what is wrong with a broken folder or a tampered archive is named.
@Suite("orders")
struct OrderTests {
    static let shop = Repository.templates.appendingPathComponent("orders/shop", isDirectory: true)
    static let orderType = "order.dev.passwright.shop"

    /// A development identities folder with the shop's Order Type ID identity, made by `certs dev`,
    /// and its root CA.
    static func identities(in folder: URL) async throws -> (root: URL, rootCA: URL) {
        let root = folder.appendingPathComponent("identities", isDirectory: true)
        let made = try await CLI.run(["certs", "dev", "--out", root.path, "--order-type-id", orderType, "--team-id", "PASSWRIGHT"])
        try #require(made.status == 0, "\(made)")
        #expect(made.out.hasPrefix("Development Order Type ID identity for \(orderType) (team PASSWRIGHT)"), "\(made)")
        return (root, root.appendingPathComponent("dev-ca/root.pem"))
    }

    /// `build` of the sample shop order into `folder/shop.order`.
    static func buildShop(in folder: URL, identities: URL) async throws -> URL {
        let order = folder.appendingPathComponent("shop.order")
        let built = try await CLI.run(["build", shop.path, "--out", order.path, "--identities", identities.path])
        try #require(built.status == 0, "\(built)")
        #expect(built.out.hasPrefix("\(order.path) (\(orderType), order "), "\(built)")
        return order
    }

    @Test("certs dev --order-type-id, build the shop folder, verify --ca and openssl cms -verify all succeed")
    func buildsAndVerifies() async throws {
        try await withScratch { folder in
            let identities = try await Self.identities(in: folder)
            let order = try await Self.buildShop(in: folder, identities: identities.root)

            let verify = try await CLI.run(["verify", order.path, "--ca", identities.rootCA.path])
            #expect(verify.status == 0, "\(verify)")
            #expect(verify.out.hasSuffix("\nvalid\n"), "\(verify)")
            for check in ["manifest: all 4 SHA-256 hashes match", "chain", "order.json: valid order", "identifiers: order type \(Self.orderType)"] {
                #expect(verify.out.contains("[ok] \(check)"), "\(check): \(verify)")
            }
            let openssl = try await OpenSSL.verifyCMSSignature(order, rootCA: identities.rootCA, workspace: folder)
            #expect(openssl.status == 0, "\(openssl)")
            #expect(openssl.err.contains("Verification successful"), "\(openssl)")

            // Renamed, it is still verified as an order: the kind is read from the archive.
            let renamed = folder.appendingPathComponent("shop.zip")
            try FileManager.default.copyItem(at: order, to: renamed)
            let byContent = try await CLI.run(["verify", renamed.path, "--ca", identities.rootCA.path])
            #expect(byContent.status == 0 && byContent.out.contains("[ok] order.json"), "\(byContent)")

            let inspect = try await CLI.run(["certs", "inspect", identities.root.appendingPathComponent("\(Self.orderType)/certificate.pem").path,
                                             "--identities", identities.root.path])
            #expect(inspect.status == 0, "\(inspect)")
            #expect(inspect.out.contains("kind             Order Type ID certificate"), "\(inspect)")
            #expect(inspect.out.contains("order type ID    \(Self.orderType)"), "\(inspect)")
        }
    }

    @Test("a broken order folder exits 1 naming the bad enumeration value and the missing image by their JSON paths, and writes nothing")
    func brokenFolder() async throws {
        try await withScratch { folder in
            let identities = try await Self.identities(in: folder)
            let broken = folder.appendingPathComponent("broken", isDirectory: true)
            try FileManager.default.copyItem(at: Self.shop, to: broken)
            try FileManager.default.removeItem(at: broken.appendingPathComponent("socks.png"))
            let json = broken.appendingPathComponent("order.json")
            let text = try String(contentsOf: json, encoding: .utf8)
            let changed = text.replacingOccurrences(of: #""status": "open""#, with: #""status": "bogus""#)
            try #require(changed != text)
            try changed.write(to: json, atomically: true, encoding: .utf8)

            let out = folder.appendingPathComponent("broken.order")
            let result = try await CLI.run(["build", broken.path, "--out", out.path, "--identities", identities.root.path])
            #expect(result.status == 1, "\(result)")
            #expect(result.err.contains("(2 errors)"), "\(result)")
            #expect(result.err.contains(#"status: expected one of "open", "completed", "cancelled", found the string "bogus""#), "\(result)")
            #expect(result.err.contains("lineItems[1].image: names socks.png, which is not in the order's files"), "\(result)")
            #expect(!FileManager.default.fileExists(atPath: out.path))

            let withData = try await CLI.run(["build", broken.path, "--data", json.path])
            #expect(withData.status == 64 && withData.err.contains("--data is for pass templates"), "\(withData)")

            // lint says the same without an identity, as findings (table and JSON); the sample is clean.
            let lint = try await CLI.run(["lint", broken.path, "--format", "json"])
            #expect(lint.status == 1, "\(lint)")
            let findings = try #require(try JSONSerialization.jsonObject(with: Data(lint.out.utf8)) as? [[String: Any]])
            #expect(Set(findings.compactMap { $0["location"] as? String }) == ["order.json status", "order.json lineItems[1].image"], "\(findings)")
            #expect(findings.allSatisfy { $0["severity"] as? String == "error" })
            let clean = try await CLI.run(["lint", Self.shop.path])
            #expect(clean.status == 0 && clean.out.contains("no findings"), "\(clean)")
        }
    }

    @Test("batch over an order folder: each JSON Lines record patches order.json into its own signed .order; a bad line is named and the rest built")
    func batchOfOrders() async throws {
        try await withScratch { folder in
            let identities = try await Self.identities(in: folder)
            let records = folder.appendingPathComponent("orders.jsonl")
            try """
                {"orderIdentifier": "B-1", "orderNumber": "9001"}
                {"orderIdentifier": "B-2", "orderNumber": "9002", "status": "completed"}
                {"orderIdentifier": "B-3", "status": "lost"}

                """.write(to: records, atomically: true, encoding: .utf8)
            let out = folder.appendingPathComponent("out", isDirectory: true)
            let result = try await CLI.run(["batch", Self.shop.path, "--input", records.path, "--out-dir", out.path, "--identities", identities.root.path])
            #expect(result.status == 1, "\(result)")
            #expect(result.err.contains("orders.jsonl line 3") && result.err.contains(#"found the string "lost""#), "\(result)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["B-1.order", "B-2.order"])
            let second = try ZipReader(data: Data(contentsOf: out.appendingPathComponent("B-2.order")))
            let json = try #require(try JSONSerialization.jsonObject(with: second.data(for: "order.json")) as? [String: Any])
            #expect(json["orderIdentifier"] as? String == "B-2" && json["orderNumber"] as? String == "9002" && json["status"] as? String == "completed")
            #expect((json["lineItems"] as? [Any])?.count == 2, "the folder's keys stay")
            let verify = try await CLI.run(["verify", out.appendingPathComponent("B-1.order").path, "--ca", identities.rootCA.path])
            #expect(verify.status == 0, "\(verify)")
        }
    }

    @Test("verify of an .order with one changed byte exits 1 naming the changed file")
    func tampered() async throws {
        try await withScratch { folder in
            let identities = try await Self.identities(in: folder)
            let order = try await Self.buildShop(in: folder, identities: identities.root)
            let tampered = folder.appendingPathComponent("tampered.order")
            try await PassChecks.tamper(order, into: tampered, entry: "order.json", replacing: "Becker", with: "Beckex")
            let result = try await CLI.run(["verify", tampered.path, "--ca", identities.rootCA.path])
            #expect(result.status == 1, "\(result)")
            #expect(result.out.contains("[FAILED] manifest: order.json"), "\(result)")
            #expect(result.out.hasSuffix("\nINVALID\n"), "\(result)")
        }
    }
}
