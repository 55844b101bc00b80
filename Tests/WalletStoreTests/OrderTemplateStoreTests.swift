import Foundation
import PasswrightTesting
import Storage
import Testing
@testable import WalletStore

/// Order templates as immutable versions: a folder stored again unchanged is no new version, a
/// changed one is, orders keep the version they were made with, and orders made before versions
/// adopt the first one stored.
@Suite(.timeLimit(.minutes(2))) struct OrderTemplateStoreTests {
    static let type = "order.com.example.shop"

    static func version(_ logo: String) -> NewOrderTemplateVersion {
        NewOrderTemplateVersion(
            name: "shop", orderTypeIdentifier: type, document: #"{"orderTypeIdentifier":"order.com.example.shop"}"#,
            files: ["logo.png": Data(logo.utf8), "de.lproj/logo.png": Data("de-\(logo)".utf8)], digest: "digest-\(logo)",
            origin: .system("folder /srv/Templates/orders/shop"))
    }

    static func order(_ identifier: String, version: Int64, in store: WalletStore) async throws -> StoredOrder {
        try await store.createOrder(
            OrderKey(orderTypeIdentifier: type, orderIdentifier: identifier), template: "shop", templateVersion: version, document: "{}",
            authenticationToken: "order-token-0123456789", lastModified: Date(), origin: .api)
    }

    @Test("a changed folder is a new version with its own files; the same folder again is none; orders keep theirs", arguments: StoreEngine.selected)
    func versionsAreImmutableAndOrdersKeepTheirs(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            let legacy = try await Self.order("made-before-versions", version: 0, in: store)
            #expect(legacy.templateVersion == 0)

            #expect(try await store.saveOrderTemplateVersion(Self.version("red")) == .stored(version: 1))
            #expect(try await store.saveOrderTemplateVersion(Self.version("red")) == .unchanged(version: 1))
            #expect(try await store.order(legacy.key)?.templateVersion == 1, "an order made before versions adopts the first")
            let first = try await Self.order("first", version: 1, in: store)

            #expect(try await store.saveOrderTemplateVersion(Self.version("blue")) == .stored(version: 2))
            #expect(try await store.currentOrderTemplateVersions() == ["shop": 2])
            #expect(try await store.order(first.key)?.templateVersion == 1, "a new version moves no order")
            #expect(try await store.order(legacy.key)?.templateVersion == 1)

            let one = try #require(try await store.orderTemplateVersion("shop", 1))
            let two = try #require(try await store.orderTemplateVersion("shop", 2))
            #expect(one.files == ["logo.png": Data("red".utf8), "de.lproj/logo.png": Data("de-red".utf8)])
            #expect(two.files["logo.png"] == Data("blue".utf8) && two.orderTypeIdentifier == Self.type && two.digest == "digest-blue")
            #expect(try await store.orderTemplateVersion("shop", 3) == nil)

            // Back to the first folder's files: a new version (3), as a pass template's rollback is.
            #expect(try await store.saveOrderTemplateVersion(Self.version("red")) == .stored(version: 3))

            let audit = try await store.auditEntries(AuditFilter(action: "order-template.publish"))
            #expect(audit.map(\.changes) == [["version 3"], ["version 2"], ["version 1"]])
            #expect(audit.allSatisfy { $0.actor == "folder /srv/Templates/orders/shop" && $0.target == "order template shop" })
        }
    }

    @Test("instances importing the same changed folder at once store it once", arguments: StoreEngine.selected)
    func concurrentImportsStoreOneVersion(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            let saves = try await withThrowingTaskGroup(of: OrderTemplateSave.self) { group in
                for _ in 0..<6 { group.addTask { try await store.saveOrderTemplateVersion(Self.version("green")) } }
                return try await group.reduce(into: [OrderTemplateSave]()) { $0.append($1) }
            }
            #expect(saves.filter { $0 == .stored(version: 1) }.count == 1, "\(saves)")
            #expect(saves.filter { $0 == .unchanged(version: 1) }.count == 5, "\(saves)")
            #expect(try await store.currentOrderTemplateVersions() == ["shop": 1])
        }
    }
}
