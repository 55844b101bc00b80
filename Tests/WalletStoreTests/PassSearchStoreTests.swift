import Foundation
import PassModel
import Storage
import Testing
@testable import WalletStore

/// Finding passes for the console: serial prefix, record substring, template, and keyset pages that
/// cover every match exactly once, on SQLite and PostgreSQL.
@Suite struct PassSearchStoreTests {
    /// 12 event passes `A-00`…`A-11` and 6 coupons `A-00`…`A-05` (same serials, other type), `B-1`
    /// whose record holds its own serial, `Q-1` whose record mentions `A-05`, and serials beyond ASCII.
    static func seed(_ store: WalletStore) async throws {
        for i in 0..<12 {
            let serial = String(format: "A-%02d", i)
            _ = try await store.createPass(Fixture.pass(serial, data: #"{"name":"guest \#(i)"}"#))
            if i < 6 { _ = try await store.createPass(Fixture.pass(serial, type: Fixture.otherPassType, template: "coupon", data: #"{"code":"C\#(i)"}"#)) }
        }
        _ = try await store.createPass(Fixture.pass("B-1", data: #"{"badge":"B-1","name":"Ada Lovelace"}"#))
        _ = try await store.createPass(Fixture.pass("Q-1", template: "coupon", data: #"{"ref":"A-05"}"#))
        _ = try await store.createPass(Fixture.pass("é-1", data: #"{"name":"Émile"}"#))
        _ = try await store.createPass(Fixture.pass("z-1", data: #"{"name":"Zoë"}"#))
    }

    /// Every page of `search`, followed to the end.
    static func allPages(_ store: WalletStore, _ search: PassSearch) async throws -> [[PassKey]] {
        var pages: [[PassKey]] = []
        var search = search
        while true {
            let page = try await store.searchPasses(search)
            pages.append(page.passes.map(\.key))
            guard let next = page.next else { return pages }
            #expect(next == page.passes.last?.key)
            search.after = next
            #expect(pages.count < 100, "the pages end")
        }
    }

    @Test(arguments: StoreEngine.selected)
    func aSerialPrefixMatchesAcrossPassTypesInSerialOrder(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            try await Self.seed(store)
            let page = try await store.searchPasses(PassSearch(text: "A-0", limit: 200))
            var expected: [PassKey] = []
            for i in 0..<10 {
                let serial = String(format: "A-%02d", i)
                // The coupon type sorts before the event type for the same serial.
                if i < 6 { expected.append(Fixture.key(serial, type: Fixture.otherPassType)) }
                expected.append(Fixture.key(serial))
            }
            // And Q-1, whose record mentions A-05.
            expected.append(Fixture.key("Q-1"))
            #expect(page.passes.map(\.key) == expected)
            #expect(page.next == nil)

            let first = try #require(page.passes.first)
            let stored = try #require(try await store.pass(first.key))
            #expect(first.template == "coupon" && first.templateVersion == stored.templateVersion)
            #expect(first.updateTag == stored.updateTag && first.updatedAt == stored.lastModified && first.voided == false)

            // Byte order: 'z' (0x7A) before 'é' (0xC3 0xA9); a prefix beyond ASCII is a range too.
            #expect(try await store.searchPasses(PassSearch(text: "é")).passes.map(\.key.serialNumber) == ["é-1"])
            #expect(try await store.searchPasses(PassSearch(text: "A-11")).passes.map(\.key.serialNumber) == ["A-11"])
            #expect(try await store.searchPasses(PassSearch(text: "nothing like it")).passes.isEmpty)
            #expect(try await store.searchPasses(PassSearch(text: "A\u{0}")).passes.isEmpty, "NUL matches nothing, on PostgreSQL too")
            // LIKE's wildcards mean nothing here: no serial starts with "A_" or "A%".
            #expect(try await store.searchPasses(PassSearch(text: "A_")).passes.isEmpty)
            #expect(try await store.searchPasses(PassSearch(text: "A%")).passes.isEmpty)
        }
    }

    @Test(arguments: StoreEngine.selected)
    func aRecordSubstringAndATemplateNarrowTheMatches(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            try await Self.seed(store)
            #expect(try await store.searchPasses(PassSearch(text: "Lovelace")).passes.map(\.key) == [Fixture.key("B-1")])
            #expect(try await store.searchPasses(PassSearch(text: "Zoë")).passes.map(\.key) == [Fixture.key("z-1")])
            // Case-sensitive, as bytes.
            #expect(try await store.searchPasses(PassSearch(text: "lovelace")).passes.isEmpty)

            // The serial prefix and the record substring together: the A-05 passes and Q-1, once each.
            #expect(try await store.searchPasses(PassSearch(text: "A-05")).passes.map(\.key) == [
                Fixture.key("A-05", type: Fixture.otherPassType), Fixture.key("A-05"), Fixture.key("Q-1"),
            ])
            // A pass matching both ways is listed once.
            #expect(try await store.searchPasses(PassSearch(text: "B-1")).passes.map(\.key) == [Fixture.key("B-1")])
            #expect(try await store.searchPasses(PassSearch(text: "guest 1")).passes.map(\.key.serialNumber) == ["A-01", "A-10", "A-11"])

            let coupons = try await store.searchPasses(PassSearch(template: "coupon")).passes
            #expect(coupons.map(\.key.serialNumber) == ["A-00", "A-01", "A-02", "A-03", "A-04", "A-05", "Q-1"])
            #expect(coupons.allSatisfy { $0.template == "coupon" })
            #expect(try await store.searchPasses(PassSearch(text: "A-05", template: "coupon")).passes.map(\.key) == [
                Fixture.key("A-05", type: Fixture.otherPassType), Fixture.key("Q-1"),
            ])
            #expect(try await store.searchPasses(PassSearch(text: "C3", template: "coupon")).passes.map(\.key.serialNumber) == ["A-03"])
            #expect(try await store.searchPasses(PassSearch(template: "nonexistent")).passes.isEmpty)
        }
    }

    @Test(arguments: StoreEngine.selected)
    func pagesCoverEveryMatchExactlyOnce(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            try await Self.seed(store)
            let everything = try await store.searchPasses(PassSearch(limit: 200))
            #expect(everything.passes.count == 22 && everything.next == nil)
            let sorted = everything.passes.map(\.key).sorted(by: WalletStore.precedes)
            #expect(everything.passes.map(\.key) == sorted)
            #expect(sorted.last?.serialNumber == "é-1")

            // 22 passes in pages of 1, 5, 11 (an exact multiple: the last full page says there is no more) and 22.
            for limit in [1, 5, 11, 22] {
                let pages = try await Self.allPages(store, PassSearch(limit: limit))
                #expect(pages.flatMap { $0 } == sorted, "limit \(limit)")
                #expect(pages.dropLast().allSatisfy { $0.count == limit })
                #expect(pages.count == (22 + limit - 1) / limit, "limit \(limit): no empty page at the end")
            }
            // Paging the union of serial and record matches.
            let union = try await store.searchPasses(PassSearch(text: "A-0", limit: 200)).passes.map(\.key)
            #expect(union.count == 17 && union.last == Fixture.key("Q-1"))
            for limit in [2, 3, 16, 17] {
                #expect(try await Self.allPages(store, PassSearch(text: "A-0", limit: limit)).flatMap { $0 } == union, "limit \(limit)")
            }
            // Within a template, and a limit beyond the maximum is clamped.
            let coupons = try await Self.allPages(store, PassSearch(template: "coupon", limit: 3))
            #expect(coupons.map(\.count) == [3, 3, 1])
            #expect(PassSearch(limit: 10_000).limit == PassSearch.maximumLimit)
        }
    }

    @Test func aPrefixSuccessorBoundsExactlyItsExtensions() {
        #expect(WalletStore.successor(ofPrefix: "ab") == "ac")
        #expect(WalletStore.successor(ofPrefix: "A-0") == "A-1")
        #expect(WalletStore.successor(ofPrefix: "a\u{10FFFF}") == "b")
        #expect(WalletStore.successor(ofPrefix: "\u{D7FF}") == "\u{E000}")
        #expect(WalletStore.successor(ofPrefix: "é") == "ê")
        #expect(WalletStore.successor(ofPrefix: "\u{10FFFF}\u{10FFFF}") == nil)
    }
}
