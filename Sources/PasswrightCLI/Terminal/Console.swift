import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where the CLI writes: results on standard output, diagnostics and progress on standard error, so
/// `passwright build … > pass.pkpass`-style pipelines stay clean.
struct Console: Sendable {
    /// Whether standard error is a terminal (progress bars are drawn only then).
    let stderrIsTerminal: Bool

    init() {
        stderrIsTerminal = isatty(2) == 1
    }

    /// Writes a line to standard output.
    func out(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Writes raw bytes to standard output.
    func outBytes(_ data: Data) {
        FileHandle.standardOutput.write(data)
    }

    /// Writes a line to standard error.
    func err(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Writes text to standard error without a newline (progress redraws).
    func errRaw(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
