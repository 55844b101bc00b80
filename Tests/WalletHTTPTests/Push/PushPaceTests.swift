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
        #expect(abs(waits.last! - 3.998) < 1e-9)
        #expect(pacer.take(at: 200) == 0, "after a pause the next push goes at once, with no burst owed")
        #expect(abs(pacer.take(at: 200) - 0.002) < 1e-9)
    }

    @Test func slowCallsCutThePaceOncePerCooldownAndFastOnesBringItBackToTheCeiling() {
        var pacer = PushPacer(rate: 1000, target: 0.05)
        #expect(pacer.rate == 1000, "it starts at the ceiling")
        pacer.adjust(deviceCallP90: 0.2, at: 10)
        #expect(pacer.rate == 750)
        // Devices feel a cut only after their own delay: slow calls within the cooldown cut no further.
        pacer.adjust(deviceCallP90: 0.2, at: 10.5)
        pacer.adjust(deviceCallP90: 0.2, at: 11)
        #expect(pacer.rate == 750)
        pacer.adjust(deviceCallP90: 0.2, at: 11.5)
        #expect(pacer.rate == 562.5)
        #expect(abs(pacer.take(at: 20) - 0) < 1e-9 && abs(pacer.take(at: 20) - 1 / 562.5) < 1e-9, "the slots follow the rate")
        // Adjustments come at most every half second, whatever the caller asks.
        #expect(!pacer.isDueForAdjustment(at: 11.9))
        pacer.adjust(deviceCallP90: 0.01, at: 11.9)
        #expect(pacer.rate == 562.5)
        // At the target or below, or with no calls to judge by, it grows by a tenth up to the ceiling.
        pacer.adjust(deviceCallP90: 0.05, at: 12)
        #expect(abs(pacer.rate - 618.75) < 1e-9)
        pacer.adjust(deviceCallP90: nil, at: 12.5)
        #expect(abs(pacer.rate - 680.625) < 1e-9)
        for step in 0..<20 { pacer.adjust(deviceCallP90: 0.001, at: 13 + Double(step) / 2) }
        #expect(pacer.rate == 1000)
    }

    @Test func thePaceNeverFallsBelowAFloorSoSlowCallsDoNotStopPushes() {
        var pacer = PushPacer(rate: 5000)
        for step in 0..<100 { pacer.adjust(deviceCallP90: 10, at: Double(step) * 2) }
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
