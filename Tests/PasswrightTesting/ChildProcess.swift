import Foundation
import Locking
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`: what the tests' subprocesses run as.
///
/// Not Foundation's `Process`: on Linux (Swift 6.3) its `run()` lists `/proc/self/fd` with a copy
/// that reads past glibc's directory buffer (swift-corelibs-foundation pull request #5472), which
/// AddressSanitizer reports and which can crash the test process at random. Spawning directly also
/// starts the child with default signal dispositions and an empty signal mask, whatever the spawning
/// thread had, and with no descriptor but its three standard ones.
public final class ChildProcess: Sendable {
    /// The child's pid.
    public let processIdentifier: pid_t
    /// The exit status once reaped, as a shell reports it (128 + the signal number after a signal).
    private let status = Locked<Int32?>(nil)

    /// Where one of the child's standard descriptors comes from.
    enum Source {
        /// `/dev/null`.
        case null
        /// A descriptor of this process, duplicated onto the child's.
        case descriptor(Int32)
    }

    /// Starts `executable` with `arguments`; `environment` replaces the whole environment (`nil`
    /// passes this process's on) and `directory` is its working directory (`nil`: this one's).
    init(_ executable: URL, _ arguments: [String], environment: [String: String]?, directory: URL?,
         stdin: Source, stdout: Source, stderr: Source) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, source) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
            switch source {
            case .null: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            }
        }
        try Self.closeFrom(3, &actions)
        if let directory { try Self.changeDirectory(directory.path, &actions) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var every = sigset_t(), none = sigset_t()
        sigfillset(&every)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &every)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable.path] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } }
        defer { envp?.forEach { free($0) } }
        var pid: pid_t = 0
        let code = (argv + [nil]).withUnsafeBufferPointer { arguments in
            if let envp {
                return (envp + [nil]).withUnsafeBufferPointer { environment in
                    posix_spawn(&pid, executable.path, &actions, &attributes, arguments.baseAddress!, environment.baseAddress!)
                }
            }
            return posix_spawn(&pid, executable.path, &actions, &attributes, arguments.baseAddress!, environ)
        }
        guard code == 0 else {
            throw FixtureError("cannot start \(executable.path): \(String(cString: strerror(code)))")
        }
        processIdentifier = pid
    }

    /// Whether the child has not exited yet (it is reaped here once it has).
    public var isRunning: Bool {
        status.withLock { status in
            guard status == nil else { return false }
            var raw: Int32 = 0
            let reaped = waitpid(processIdentifier, &raw, WNOHANG)
            if reaped == processIdentifier { status = Self.shellStatus(raw) }
            return reaped == 0
        }
    }

    /// Blocks until the child has exited; returns its status as a shell reports it.
    @discardableResult
    public func waitUntilExit() -> Int32 {
        if let known = status.withLock({ $0 }) { return known }
        var raw: Int32 = 0
        var reaped: pid_t
        repeat { reaped = waitpid(processIdentifier, &raw, 0) } while reaped == -1 && errno == EINTR
        return status.withLock { status in
            // Reaped by `isRunning` meanwhile (ECHILD here): its status is the one recorded.
            if status == nil, reaped == processIdentifier { status = Self.shellStatus(raw) }
            return status ?? 255
        }
    }

    private static func shellStatus(_ raw: Int32) -> Int32 {
        let signal = raw & 0x7F
        return signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
    }

    // glibc has both since 2.34 and 2.29; Swift's Glibc module leaves out the `_np` declarations.
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    private static func glibc<T>(_ name: String, as type: T.Type) throws -> T {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
            throw FixtureError("glibc has no \(name) (glibc 2.34 or later is needed)")
        }
        return unsafeBitCast(symbol, to: type)
    }

    private static func closeFrom(_ first: Int32, _ actions: inout posix_spawn_file_actions_t) throws {
        guard try glibc("posix_spawn_file_actions_addclosefrom_np", as: CloseFrom.self)(&actions, first) == 0 else {
            throw FixtureError("posix_spawn_file_actions_addclosefrom_np failed")
        }
    }

    private static func changeDirectory(_ path: String, _ actions: inout posix_spawn_file_actions_t) throws {
        guard try glibc("posix_spawn_file_actions_addchdir_np", as: ChangeDirectory.self)(&actions, path) == 0 else {
            throw FixtureError("posix_spawn_file_actions_addchdir_np failed")
        }
    }
}
