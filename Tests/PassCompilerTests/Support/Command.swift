import Foundation

/// A real command-line tool (`openssl`, `unzip`), to check the compiler against independent
/// implementations. Secrets go through `environment` (`-passout env:PW`), never as arguments.
enum Command {
    struct Result {
        var status: Int32
        var output: String
        var error: String
        var succeeded: Bool { status == 0 }
    }

    static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      output: String(decoding: outData, as: UTF8.self),
                      error: String(decoding: errData, as: UTF8.self))
    }
}
