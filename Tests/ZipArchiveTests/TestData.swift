import Foundation
import PasswrightTesting

extension Subprocess {
    /// Runs a Python script that writes an archive to `sys.argv[1]` and returns the archive's bytes:
    /// Python's `zipfile` is an independent writer, for archives the project's writer would not make.
    static func pythonArchive(_ script: String) throws -> Data {
        try withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("made-by-python.zip").path
            let output = try toolBlocking("python3", ["-c", "import sys, zipfile\n" + script, path])
            guard output.status == 0 else { throw FixtureError("python3 failed: \(output)") }
            return try Data(contentsOf: URL(fileURLWithPath: path))
        }
    }
}

extension Data {
    /// Bytes that do not compress (a seeded generator, so runs are repeatable), standing in for PNGs.
    static func incompressible(count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> Data {
        var state = seed
        return Data((0..<count).map { _ in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        })
    }

    /// Replaces every occurrence of `target` with `replacement` (same length), for forging headers.
    func replacingAll(_ target: Data, with replacement: Data) -> Data {
        precondition(target.count == replacement.count)
        var copy = self
        var start = copy.startIndex
        while let found = copy[start...].firstRange(of: target) {
            copy.replaceSubrange(found, with: replacement)
            start = found.upperBound
        }
        return copy
    }
}
