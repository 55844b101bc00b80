internal import CMicroHTTPD
import Locking
import Foundation

/// Owns one running `MHD_Daemon`: started in `init`, stopped exactly once by `stop()` or `deinit`.
///
/// `@unchecked Sendable`: the handle never changes after `init`; libmicrohttpd allows `MHD_quiesce_daemon`
/// and `MHD_stop_daemon` from any thread, and `state` makes each happen at most once.
final class MicroHTTPDaemon: @unchecked Sendable {
    private struct State {
        var stopped = false
        /// The listening socket handed back by `MHD_quiesce_daemon`; ours to close after the stop.
        var quiescedSocket: Int32?
    }

    private let handle: OpaquePointer
    /// Kept alive here because every callback receives it as an unretained pointer.
    private let dispatcher: RequestDispatcher
    private let state = Locked(State())
    /// The port actually bound (the system's choice when the configuration asked for 0).
    let port: Int

    init(configuration: HTTPServerConfiguration, dispatcher: RequestDispatcher) throws(HTTPServerError) {
        try Self.validate(configuration)
        let address = try SocketAddress(hostname: configuration.hostname, port: configuration.port)
        self.dispatcher = dispatcher
        let context = Unmanaged.passUnretained(dispatcher).toOpaque()

        var flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }

        var storage = address.storage
        let started: OpaquePointer? = withUnsafeMutableBytes(of: &storage) { socketAddress in
            var options: [MHD_OptionItem] = [
                // First, so libmicrohttpd routes every later message (including option errors) here.
                MHD_OptionItem(
                    option: .EXTERNAL_LOGGER,
                    value: unsafeBitCast(microHTTPDLog as MHD_LogCallback, to: Int.self),
                    ptr_value: context
                ),
                MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: configuration.maxHeaderSize, ptr_value: nil),
                MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.connectionLimit, ptr_value: nil),
                MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: Self.wholeSeconds(configuration.connectionTimeout), ptr_value: nil),
                MHD_OptionItem(option: .PER_IP_CONNECTION_LIMIT, value: configuration.perIPConnectionLimit ?? 0, ptr_value: nil),
                MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: socketAddress.baseAddress),
                // Strict parsing: HTTP/1.1 without Host, spaces in the target, bad header names get 400.
                MHD_OptionItem(option: .STRICT_FOR_CLIENT, value: 1, ptr_value: nil),
                MHD_OptionItem(
                    option: .URI_LOG_CALLBACK,
                    value: unsafeBitCast(microHTTPDRequestStarted as MicroHTTPDURILogCallback, to: Int.self),
                    ptr_value: context
                ),
                MHD_OptionItem(
                    option: .NOTIFY_CONNECTION,
                    value: unsafeBitCast(microHTTPDConnectionNotified as MHD_NotifyConnectionCallback, to: Int.self),
                    ptr_value: context
                ),
                MHD_OptionItem(
                    option: .NOTIFY_COMPLETED,
                    value: unsafeBitCast(microHTTPDRequestCompleted as MHD_RequestCompletedCallback, to: Int.self),
                    ptr_value: context
                ),
            ]
            if configuration.threadCount > 1 {
                options.append(MHD_OptionItem(option: .THREAD_POOL_SIZE, value: configuration.threadCount, ptr_value: nil))
            }
            options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
            return options.withUnsafeMutableBufferPointer { items in
                withVaList([MHD_OPTION.ARRAY.rawValue, items.baseAddress!, MHD_OPTION.END.rawValue]) { arguments in
                    MHD_start_daemon_va(
                        flags, UInt16(configuration.port), nil, nil, microHTTPDAccess, context, arguments
                    )
                }
            }
        }
        guard let started else {
            let reason = dispatcher.takeLastDaemonMessage() ?? String(cString: strerror(errno))
            throw .bindFailed(host: configuration.hostname, port: configuration.port, reason: reason)
        }
        self.handle = started
        self.port = Int(passwright_mhd_bound_port(started))
    }

    /// Stops accepting connections; connections already open carry on.
    func quiesce() {
        state.withLock { state in
            guard !state.stopped, state.quiescedSocket == nil else { return }
            let socket = MHD_quiesce_daemon(handle)
            if socket != MHD_INVALID_SOCKET { state.quiescedSocket = socket }
        }
    }

    /// Resumes every suspended connection (with 503), stops the daemon threads, closes every connection
    /// and the listening socket. Idempotent.
    func stop() {
        let quiescedSocket: Int32?? = state.withLock { state in
            guard !state.stopped else { return .none }
            state.stopped = true
            return .some(state.quiescedSocket)
        }
        guard case .some(let socket) = quiescedSocket else { return }
        dispatcher.close()
        MHD_stop_daemon(handle)
        if let socket { close(socket) }
    }

    deinit {
        stop()
    }

    private static func validate(_ configuration: HTTPServerConfiguration) throws(HTTPServerError) {
        func require(_ condition: Bool, _ field: String, _ reason: String) throws(HTTPServerError) {
            if !condition { throw .invalidConfiguration(field: field, reason: reason) }
        }
        try require((0...65535).contains(configuration.port), "port", "must be between 0 and 65535")
        try require(configuration.threadCount >= 1, "threadCount", "must be at least 1")
        try require(configuration.connectionLimit >= 1, "connectionLimit", "must be at least 1")
        try require((configuration.perIPConnectionLimit ?? 1) >= 1, "perIPConnectionLimit", "must be at least 1 (or nil for no limit)")
        try require(configuration.maxBodySize >= 0, "maxBodySize", "must not be negative")
        try require(configuration.maxHeaderSize >= 4096, "maxHeaderSize", "must be at least 4096 bytes")
    }

    /// libmicrohttpd counts timeouts in whole seconds, 0 meaning none; round up so a short timeout is not "none".
    private static func wholeSeconds(_ duration: Duration?) -> Int {
        guard let duration else { return 0 }
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) + (attoseconds > 0 ? 1 : 0))
    }
}
