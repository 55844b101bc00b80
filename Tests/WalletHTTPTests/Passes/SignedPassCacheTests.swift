import Foundation
import PassCompiler
import PassModel
import WalletPackage
import Testing
@testable import WalletCore

/// The signed-pass cache: bounded by bytes, least recently used out first, keyed by the pass's
/// version; and over HTTP, the devices of one pass share one signature per update.
struct SignedPassCacheTests {
    static func version(_ serial: String, tag: Int64 = 1, templateVersion: Int64 = 1) -> SignedPassCache.Version {
        SignedPassCache.Version(key: PassKey(passTypeIdentifier: "pass.test", serialNumber: serial), tag: tag, templateVersion: templateVersion)
    }

    /// A packaged pass of `count` bytes of its own.
    static func bytes(_ count: Int, _ fill: UInt8 = 1) -> PackagedPass {
        PackagedPass(shared: Data(repeating: 9, count: 1_000), own: Data(repeating: fill, count: count))
    }

    @Test func theBudgetIsInBytesAndTheLeastRecentlyUsedGoesFirst() {
        let cache = SignedPassCache(budget: 100)
        cache.store(Self.bytes(40), for: Self.version("a"))
        cache.store(Self.bytes(40), for: Self.version("b"))
        #expect(cache.packaged(Self.version("a")) != nil, "a is used after b")
        cache.store(Self.bytes(40), for: Self.version("c"))
        #expect(cache.packaged(Self.version("b")) == nil, "b was the least recently used")
        #expect(cache.packaged(Self.version("a")) != nil && cache.packaged(Self.version("c")) != nil)
        #expect(cache.statistics == SignedPassCacheStatistics(hits: 3, misses: 1, entries: 2, bytes: 80))
    }

    @Test func anotherTagOrTemplateVersionMissesAndAReplacementKeepsTheBytesRight() {
        let cache = SignedPassCache(budget: 1000)
        cache.store(Self.bytes(400), for: Self.version("a"))
        #expect(cache.packaged(Self.version("a", tag: 2)) == nil)
        #expect(cache.packaged(Self.version("a", templateVersion: 2)) == nil)
        cache.store(Self.bytes(300, 2), for: Self.version("a", tag: 2))
        #expect(cache.packaged(Self.version("a")) == nil, "the old build is gone with its tag")
        #expect(cache.packaged(Self.version("a", tag: 2)) == Self.bytes(300, 2))
        #expect(cache.statistics.bytes == 300 && cache.statistics.entries == 1)
    }

    /// A build of the pass from before its erasure that finishes after it is not kept: no copy of the
    /// old record stays in memory; the erased version's own build is.
    @Test func anErasureDropsTheOldBuildAndRefusesOnesStillInFlight() {
        let cache = SignedPassCache(budget: 1000)
        cache.store(Self.bytes(100), for: Self.version("a", tag: 2))
        cache.forget(Self.version("a").key, erasedAt: 5)
        #expect(cache.statistics.bytes == 0 && cache.packaged(Self.version("a", tag: 2)) == nil)
        cache.store(Self.bytes(100), for: Self.version("a", tag: 4))
        #expect(cache.packaged(Self.version("a", tag: 4)) == nil, "signed from the record before the erasure")
        cache.store(Self.bytes(50), for: Self.version("a", tag: 5))
        #expect(cache.packaged(Self.version("a", tag: 5)) != nil && cache.statistics.bytes == 50)
    }

    @Test func anArchiveOverTheBudgetIsNotKeptAndEvictsNothing() {
        let cache = SignedPassCache(budget: 100)
        cache.store(Self.bytes(60), for: Self.version("a"))
        cache.store(Self.bytes(101), for: Self.version("big"))
        #expect(cache.packaged(Self.version("big")) == nil && cache.packaged(Self.version("a")) != nil)
        let none = SignedPassCache(budget: 0)
        none.store(Self.bytes(1), for: Self.version("a"))
        #expect(none.packaged(Self.version("a")) == nil)
    }

    /// Hits append to the use queue; compacting it must keep every entry and the order of last use.
    @Test func manyHitsKeepEveryEntryAndTheOrderOfLastUse() {
        let cache = SignedPassCache(budget: 10 * 10)
        let serials = (0..<10).map { "p\($0)" }
        for serial in serials { cache.store(Self.bytes(10), for: Self.version(serial)) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            #expect(cache.packaged(Self.version(serials.randomElement(using: &generator)!)) != nil)
        }
        // Use them in a known order, then add three: the three used longest ago go.
        for serial in serials { _ = cache.packaged(Self.version(serial)) }
        for serial in ["n0", "n1", "n2"] { cache.store(Self.bytes(10), for: Self.version(serial)) }
        let kept = serials.filter { cache.packaged(Self.version($0)) != nil }
        #expect(kept == Array(serials.dropFirst(3)))
        #expect(cache.statistics.entries == 10 && cache.statistics.bytes == 100)
    }

    @Test("two devices fetching one update share one signature; a change signs once more", arguments: Engine.selected)
    func devicesOfAPassShareASignature(engine: Engine) async throws {
        try await withService(engine: engine) { server in
            _ = try await server.issue(serial: "CACHE-1", data: try Samples.record("loyalty", authenticationToken: "cache-token-0123456789"))
            let path = "/wallet/v1/passes/\(DeviceFlowTests.passType)/CACHE-1"
            let auth = [("Authorization", "ApplePass cache-token-0123456789")]
            let before = try await Self.counters(server)
            let first = try await server.client.send("GET", path, headers: auth)
            let second = try await server.client.send("GET", path, headers: auth)
            #expect(first.status == 200 && second.status == 200 && first.body == second.body, "the same signed bytes")
            #expect(try await Self.counters(server) == Counters(hits: before.hits + 1, misses: before.misses + 1))

            #expect(try await server.api("PATCH", "/api/v1/passes/\(DeviceFlowTests.passType)/CACHE-1", json: ["data": ["points": 77]]).status == 200)
            let changed = try await server.client.send("GET", path, headers: auth)
            let again = try await server.client.send("GET", path, headers: auth)
            #expect(changed.body != first.body && changed.body == again.body)
            #expect(try ServedPass(archive: changed.body).fieldValue("points").number == 77, "the fetch after the change has it")
            #expect(try await Self.counters(server) == Counters(hits: before.hits + 2, misses: before.misses + 2))
        }
    }

    struct Counters: Equatable {
        var hits: Int
        var misses: Int
    }

    static func counters(_ server: TestService) async throws -> Counters {
        Counters(hits: try await server.metric("passwright_pass_cache_hits"), misses: try await server.metric("passwright_pass_cache_misses"))
    }
}
