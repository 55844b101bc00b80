import Foundation

/// Runs real tools (unzip, zipinfo, python3) against real files in a throwaway folder.
enum Subprocess {
    struct Output {
        let status: Int32
        let stdout: Data
        var text: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// Runs `executable` (looked up on PATH) with `arguments` and waits for it.
    static func run(_ executable: String, _ arguments: [String]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: data)
    }

    /// Runs a Python script that writes an archive to `sys.argv[1]` and returns the archive's bytes.
    static func pythonArchive(_ script: String) throws -> Data {
        try withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("made-by-python.zip").path
            let output = try run("python3", ["-c", "import sys, zipfile\n" + script, path])
            guard output.status == 0 else { throw CocoaError(.fileWriteUnknown) }
            return try Data(contentsOf: URL(fileURLWithPath: path))
        }
    }

    /// Gives `body` a fresh temporary folder and removes it afterwards.
    static func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("ZipArchiveTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
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
