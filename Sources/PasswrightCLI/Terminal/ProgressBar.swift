import Locking
import Foundation

/// A one-line progress bar on standard error, redrawn at most ten times a second, drawn only when
/// standard error is a terminal so logs and CI output stay free of control characters.
final class ProgressBar: Sendable {
    private struct State {
        var lastDraw: ContinuousClock.Instant?
        var drawn = false
    }

    private let console: Console
    private let title: String
    private let state = Locked(State())
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant

    init(console: Console, title: String) {
        self.console = console
        self.title = title
        start = clock.now
    }

    /// Redraws with `fraction` (0…1) done and a counter text, unless drawn in the last 100 ms.
    func update(fraction: Double, detail: String) {
        guard console.stderrIsTerminal else { return }
        let now = clock.now
        let shouldDraw = state.withLock { state in
            if let last = state.lastDraw, now - last < .milliseconds(100) { return false }
            state.lastDraw = now
            state.drawn = true
            return true
        }
        guard shouldDraw else { return }
        let clamped = min(max(fraction, 0), 1)
        let width = 30
        let filled = Int(clamped * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let percent = Int(clamped * 100)
        console.errRaw("\r\u{1B}[2K\(title) \(bar) \(percent)% \(detail)")
    }

    /// Seconds since the bar was created.
    var elapsedSeconds: Double {
        let elapsed = clock.now - start
        return elapsed / .seconds(1)
    }

    /// Clears the line so the summary that follows starts on a clean line.
    func finish() {
        guard console.stderrIsTerminal, state.withLock({ $0.drawn }) else { return }
        console.errRaw("\r\u{1B}[2K")
    }
}
