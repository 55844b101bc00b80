import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Starts one of the test kit's Python stand-ins (APNs, the webhook receiver): each prints `PORT <n>`
/// on standard output once it listens, and nothing else there; end of output first means it died.
/// Its standard error goes to `errorFile`, quoted when it does not start.
enum PortAnnouncingProcess {
    static func start(_ arguments: [String], errorFile: URL, hint: String) throws -> (process: ChildProcess, port: Int) {
        guard FileManager.default.createFile(atPath: errorFile.path, contents: nil) else {
            throw FixtureError("cannot create \(errorFile.path)")
        }
        let output = Pipe()
        let errors = try FileHandle(forWritingTo: errorFile)
        let process = try ChildProcess(
            Subprocess.envExecutable, arguments, environment: nil, directory: nil,
            stdin: .null, stdout: .descriptor(output.fileHandleForWriting.fileDescriptor), stderr: .descriptor(errors.fileDescriptor)
        )
        try output.fileHandleForWriting.close()
        try errors.close()
        var text = ""
        while !text.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let stderr = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            throw FixtureError("\(arguments.dropFirst().first ?? "the stand-in") did not start (\(hint)): \(text) \(stderr)")
        }
        return (process, port)
    }
}
