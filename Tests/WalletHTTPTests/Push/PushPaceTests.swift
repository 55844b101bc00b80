import Testing
@testable import WalletCore

/// The push pace on an explicit clock: it follows the 90th percentile of devices' calls after
/// pushes, falling when they are slower than the target and climbing back to the ceiling otherwise.
struct PushPaceTests {
    @Test("pushes are spaced at the rate: 2,000 at 500 a second span four seconds, and idle time is not banked")
    func spacing() {
        var pacer = PushPacer(rate: 500)
        let waits = (0..<2000).map { _ in pacer.take(at: 100) }
        #expect(waits.first == 0)
        #expect(abs(waits.last! - 4) < 1e-9, "the last slot, 3.998 s on, goes at the end of its tick")
        #expect(pacer.take(at: 200) == 0, "after a pause the next push goes at once, with no burst owed")
        #expect(abs(pacer.take(at: 200) - 0.01) < 1e-9)
    }

    @Test("slots within one 10 ms tick are released together at its end: at 3,000 a second, 30 a tick")
    func slotsGoTogetherPerTick() {
        var pacer = PushPacer(rate: 3000)
        let waits = (0..<3001).map { _ in pacer.take(at: 50) }
        let releases = Dictionary(grouping: waits.dropFirst(), by: { ($0 * 1000).rounded() })
        #expect(releases.count == 100, "one second of slots leaves in 100 ticks, not 3,000 moments")
        #expect(releases.values.allSatisfy { (29...31).contains($0.count) })
        #expect(releases.keys.allSatisfy { $0.truncatingRemainder(dividingBy: 10) == 0 }, "each at a tick's end")
        #expect(releases.keys.max() == 1000, "the rate over the second is unchanged")
    }

    /// Sends for half a second before `now` at `perSecond` (the slots the worker would take).
    static func send(_ pacer: inout PushPacer, _ perSecond: Double, before now: Double) {
        for index in 0..<Int(perSecond / 2) { _ = pacer.take(at: now - 0.5 + Double(index) / perSecond) }
    }

    @Test func slowCallsCutThePaceOncePerCooldownAndFastOnesBringItBackToTheCeiling() {
        var pacer = PushPacer(rate: 1000, target: 0.05)
        #expect(pacer.rate == 1000, "it starts at the ceiling")
        pacer.adjust(deviceCallP90: 0.2, at: 9.5)
        #expect(pacer.rate == 1000, "with nothing sent lately, slow calls are not the pushes' doing")
        Self.send(&pacer, 1000, before: 10)
        pacer.adjust(deviceCallP90: 0.2, at: 10)
        #expect(pacer.rate == 850)
        // Devices feel a cut only after their own delay: slow calls within the cooldown cut no further.
        Self.send(&pacer, 850, before: 10.5)
        pacer.adjust(deviceCallP90: 0.2, at: 10.5)
        Self.send(&pacer, 850, before: 11)
        pacer.adjust(deviceCallP90: 0.2, at: 11)
        #expect(pacer.rate == 850)
        Self.send(&pacer, 850, before: 11.5)
        pacer.adjust(deviceCallP90: 0.2, at: 11.5)
        #expect(pacer.rate == 722.5)
        #expect(pacer.take(at: 20) == 0, "the slots follow the rate")
        for _ in 0..<14 { _ = pacer.take(at: 20) }
        #expect(abs(pacer.take(at: 20) - 0.03) < 1e-9, "the 16th slot at 722.5/s (20.0208 s) goes at the end of its tick")
        // Adjustments come at most every half second, whatever the caller asks.
        #expect(!pacer.isDueForAdjustment(at: 11.9))
        pacer.adjust(deviceCallP90: 0.01, at: 11.9)
        #expect(pacer.rate == 722.5)
        // At the target or below, with pushes going at the rate, it grows by a tenth up to the ceiling.
        Self.send(&pacer, 722.5, before: 12)
        pacer.adjust(deviceCallP90: 0.05, at: 12)
        #expect(abs(pacer.rate - 794.75) < 1e-9)
        for step in 1...20 {
            let now = 12 + Double(step) / 2
            Self.send(&pacer, pacer.rate, before: now)
            pacer.adjust(deviceCallP90: step.isMultiple(of: 2) ? nil : 0.001, at: now)
        }
        #expect(pacer.rate == 1000)
    }

    @Test func aRateThePushesDoNotUseNeitherGrowsNorDelaysACut() {
        var pacer = PushPacer(rate: 5000, target: 0.05)
        // Signing ahead holds the pushes at 1,200 a second: the unused rate stays where it is.
        Self.send(&pacer, 1200, before: 1)
        pacer.adjust(deviceCallP90: 0.01, at: 1)
        Self.send(&pacer, 1200, before: 1.5)
        pacer.adjust(deviceCallP90: 0.01, at: 1.5)
        #expect(pacer.rate == 5000)
        pacer = PushPacer(rate: 5000, target: 0.05)
        Self.send(&pacer, 1200, before: 0)
        pacer.adjust(deviceCallP90: nil, at: 0)
        // When the calls slow down, the cut is from what was sent: 1,020 a second at once, not 4,250.
        Self.send(&pacer, 1200, before: 0.5)
        pacer.adjust(deviceCallP90: 0.2, at: 0.5)
        #expect(pacer.rate == 1020)
        // After a pause the next wave starts at the pace this one found.
        pacer.adjust(deviceCallP90: nil, at: 60)
        #expect(abs(pacer.rate - 1122) < 1e-9, "one step up, from 1,020")
    }

    @Test func aTrickleUnderTheFloorDoesNotCutThePaceForTheNextWave() {
        var pacer = PushPacer(rate: 5000, target: 0.05)
        // Devices are slow for a reason of their own while a push goes out now and then: four a
        // second, or one every few seconds (each then after a pause).
        pacer.adjust(deviceCallP90: nil, at: 0)
        for step in 1...20 {
            let now = Double(step) / 2
            _ = pacer.take(at: now - 0.3)
            _ = pacer.take(at: now - 0.1)
            pacer.adjust(deviceCallP90: 0.4, at: now)
        }
        for step in 1...20 {
            let now = 10 + Double(step) * 3
            _ = pacer.take(at: now)
            pacer.adjust(deviceCallP90: 0.4, at: now)
        }
        #expect(pacer.rate == 5000, "a trickle slows no device: the next wave starts at the pace found before")
        // A flow at the floor or above is cut as before.
        pacer.adjust(deviceCallP90: nil, at: 80)
        Self.send(&pacer, 1200, before: 80.5)
        pacer.adjust(deviceCallP90: 0.4, at: 80.5)
        #expect(pacer.rate == 1020)
    }

    @Test func thePaceNeverFallsBelowAFloorSoSlowCallsDoNotStopPushes() {
        var pacer = PushPacer(rate: 5000)
        pacer.adjust(deviceCallP90: nil, at: 0)
        for step in 1...100 {
            let now = Double(step) / 2
            Self.send(&pacer, pacer.rate, before: now)
            pacer.adjust(deviceCallP90: 10, at: now)
        }
        #expect(pacer.rate == 100)
        var slow = PushPacer(rate: 40)
        slow.adjust(deviceCallP90: 10, at: 0)
        #expect(slow.rate == 40, "a ceiling under the floor is the floor")
    }

    @Test func theCallTimesAreTheLastSecondsQuantile() {
        var times = DeviceCallTimes(window: 1, capacity: 100)
        #expect(times.quantile(0.9, at: 0) == nil, "no calls: no signal")
        for index in 1...100 { times.record(Double(index) / 1000, at: 5) }
        #expect(times.quantile(0.9, at: 5.5) == 0.09)
        #expect(times.quantile(0.5, at: 5.5) == 0.05)
        #expect(times.quantile(1, at: 5.5) == 0.1)
        #expect(times.quantile(0.9, at: 6.5) == nil, "a second later they are forgotten")
        // Past its capacity the newest replace the oldest.
        for _ in 1...100 { times.record(0.5, at: 7) }
        #expect(times.quantile(0.01, at: 7) == 0.5)
    }
}
