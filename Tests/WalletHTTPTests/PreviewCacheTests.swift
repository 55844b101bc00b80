import Foundation
import PassModel
import Testing
import WalletStore
@testable import WalletCore
@testable import WalletHTTP

/// The preview cache's bounds and keys, in-process: what it keeps decides what the routes redraw.
@Suite("Preview cache")
struct PreviewCacheTests {
    static let pass = PassKey(passTypeIdentifier: "pass.dev.passwright.loyalty", serialNumber: "C-1")

    static func key(_ serial: String = "C-1", tag: Int64 = 1, version: Int64 = 1, options: String = "front-2x-png-base-own") -> PreviewCache.Key {
        PreviewCache.Key(pass: PassKey(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: serial), tag: tag, templateVersion: version, options: options)
    }

    @Test("each option set of a pass is its own entry; a newer tag or template version drops the pass's older pictures")
    func keys() {
        let cache = PreviewCache(capacity: 10, maxBytes: 1 << 20)
        cache.store(Data("front".utf8), for: Self.key())
        cache.store(Data("de".utf8), for: Self.key(options: "front-2x-png-de-own"))
        cache.store(Data("other".utf8), for: Self.key("C-2"))
        #expect(cache.picture(for: Self.key()) == Data("front".utf8))
        #expect(cache.picture(for: Self.key(options: "front-2x-png-de-own")) == Data("de".utf8))
        #expect(cache.picture(for: Self.key(tag: 2)) == nil)

        cache.store(Data("front v2".utf8), for: Self.key(tag: 1, version: 2))
        #expect(cache.picture(for: Self.key()) == nil, "superseded by the new template version")
        #expect(cache.picture(for: Self.key(options: "front-2x-png-de-own")) == nil)
        #expect(cache.picture(for: Self.key("C-2")) == Data("other".utf8), "another pass keeps its picture")
        #expect(cache.usage.entries == 2)
        #expect(cache.usage.bytes == "front v2".utf8.count + "other".utf8.count)
    }

    @Test("over its entry bound the least recently used picture goes first")
    func entryBound() {
        let cache = PreviewCache(capacity: 2, maxBytes: 1 << 20)
        cache.store(Data([1]), for: Self.key("A"))
        cache.store(Data([2]), for: Self.key("B"))
        _ = cache.picture(for: Self.key("A"))
        cache.store(Data([3]), for: Self.key("C"))
        #expect(cache.picture(for: Self.key("A")) == Data([1]), "used last, so kept")
        #expect(cache.picture(for: Self.key("B")) == nil)
        #expect(cache.picture(for: Self.key("C")) == Data([3]))
        #expect(cache.usage.entries == 2)
    }

    @Test("over its byte bound pictures go until the rest fit; one picture over the bound is not kept")
    func byteBound() {
        let cache = PreviewCache(capacity: 100, maxBytes: 1000)
        for serial in ["A", "B", "C"] { cache.store(Data(count: 400), for: Self.key(serial)) }
        #expect(cache.usage.entries == 2)
        #expect(cache.usage.bytes == 800)
        #expect(cache.picture(for: Self.key("A")) == nil)
        cache.store(Data(count: 1001), for: Self.key("D"))
        #expect(cache.picture(for: Self.key("D")) == nil)
        #expect(cache.usage.bytes == 800, "nothing was evicted for a picture that was never kept")
        cache.store(Data(count: 100), for: Self.key("B"))
        #expect(cache.usage.bytes == 500, "replacing an entry counts its bytes once")
    }
}
