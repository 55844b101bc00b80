import Testing
@testable import WalletCore

/// The pace the outbox's ETA uses: pushes accepted over the last 10 seconds, on an explicit clock.
struct SendRateTests {
    @Test func thePaceIsWhatWasSentInTheWindowAndForgetsWhatIsOlder() {
        var rate = SendRate(window: 10)
        #expect(rate.perSecond(at: 0) == nil, "nothing sent: no pace")
        for second in 0..<10 { rate.record(300, at: Double(second) + 0.5) }
        #expect(rate.perSecond(at: 9.9) == 300)
        // The next seconds send nothing: the window empties as they pass.
        #expect(rate.perSecond(at: 14.9) == 150)
        #expect(rate.perSecond(at: 20.5) == nil)
        // Several settlements in one second add up.
        rate.record(40, at: 30.1)
        rate.record(60, at: 30.8)
        #expect(rate.perSecond(at: 31) == 10)
    }
}
