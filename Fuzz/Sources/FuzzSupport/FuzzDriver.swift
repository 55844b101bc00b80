import Foundation

/// libFuzzer's entry point for programs that keep their own `main`: it parses libFuzzer's flags from
/// `argv` and then calls `callback` with each input, as `LLVMFuzzerTestOneInput` would be.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The signature of a fuzz target's `LLVMFuzzerTestOneInput`.
public typealias FuzzCallback = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

/// Runs a fuzz target under libFuzzer.
///
/// SwiftPM gives every executable its own `main`, which would shadow libFuzzer's; so each target's
/// `main.swift` prepares its fixtures and then hands over here, and libFuzzer runs as usual (corpus
/// directories, `-max_total_time`, crash files, replaying single inputs given as paths).
public enum FuzzDriver {
    public static func run(_ callback: FuzzCallback) -> Never {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
    }

    /// The input libFuzzer passed, as `Data` (it may be empty and its pointer `nil`).
    public static func data(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Data {
        guard let bytes, count > 0 else { return Data() }
        return Data(bytes: bytes, count: count)
    }
}
