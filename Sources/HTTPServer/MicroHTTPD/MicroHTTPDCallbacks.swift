internal import CMicroHTTPD
import Foundation

// libmicrohttpd's callbacks, as global functions (a closure would be main-actor isolated in some
// contexts and crash when called from the daemon's threads; see c-libraries.md). Each receives the
// `RequestDispatcher` unretained: `MicroHTTPDaemon` keeps it alive until the daemon has stopped.

/// The `void *(*)(void *, const char *, struct MHD_Connection *)` type of `MHD_OPTION_URI_LOG_CALLBACK`.
typealias MicroHTTPDURILogCallback = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer?

/// Called with the raw request target before libmicrohttpd decodes it; its result becomes the
/// request's context pointer (retained here, released in `microHTTPDRequestCompleted`).
func microHTTPDRequestStarted(
    _ dispatcherPointer: UnsafeMutableRawPointer?,
    _ target: UnsafePointer<CChar>?,
    _ connection: OpaquePointer?
) -> UnsafeMutableRawPointer? {
    guard let dispatcherPointer, let connection else { return nil }
    let dispatcher = Unmanaged<RequestDispatcher>.fromOpaque(dispatcherPointer).takeUnretainedValue()
    let context = dispatcher.begin(target: target.map { String(cString: $0) } ?? "/", connection: MicroHTTPDConnection(pointer: connection))
    return Unmanaged.passRetained(context).toOpaque()
}

/// The access handler: called for the headers, each body chunk, the end of the body, and after a resume.
func microHTTPDAccess(
    _ dispatcherPointer: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?,
    _ version: UnsafePointer<CChar>?,
    _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?,
    _ contextPointer: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let dispatcherPointer, connection != nil, let uploadDataSize, let request = contextPointer?.pointee else {
        return .NO
    }
    let dispatcher = Unmanaged<RequestDispatcher>.fromOpaque(dispatcherPointer).takeUnretainedValue()
    let context = Unmanaged<InFlightRequest>.fromOpaque(request).takeUnretainedValue()
    let upload = UnsafeRawBufferPointer(start: uploadData, count: uploadDataSize.pointee)
    let proceed = dispatcher.handle(context, method: method.map { String(cString: $0) } ?? "", upload: upload)
    uploadDataSize.pointee = 0  // every chunk is consumed (buffered or, past the limit, dropped)
    return proceed ? .YES : .NO
}

/// The request is over, whatever the reason: stop tracking it and release its context.
func microHTTPDRequestCompleted(
    _ dispatcherPointer: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ contextPointer: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ termination: MHD_RequestTerminationCode
) {
    guard let dispatcherPointer, let contextPointer, let request = contextPointer.pointee else { return }
    contextPointer.pointee = nil
    let dispatcher = Unmanaged<RequestDispatcher>.fromOpaque(dispatcherPointer).takeUnretainedValue()
    if let connection { dispatcher.deadlines?.completed(MicroHTTPDConnection(pointer: connection)) }
    dispatcher.end(Unmanaged<InFlightRequest>.fromOpaque(request).takeRetainedValue())
}

/// A connection opened or is closing (libmicrohttpd notifies before it closes the socket, and after the
/// completion callbacks of its requests).
func microHTTPDConnectionNotified(
    _ dispatcherPointer: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ code: MHD_ConnectionNotificationCode
) {
    guard let dispatcherPointer, let connection else { return }
    let dispatcher = Unmanaged<RequestDispatcher>.fromOpaque(dispatcherPointer).takeUnretainedValue()
    if code == .CONNECTION_NOTIFY_STARTED {
        dispatcher.connectionOpened(MicroHTTPDConnection(pointer: connection))
    } else {
        dispatcher.connectionClosed(MicroHTTPDConnection(pointer: connection))
    }
}

/// libmicrohttpd's diagnostics (bind failures, protocol errors), formatted and passed to the logger.
func microHTTPDLog(_ dispatcherPointer: UnsafeMutableRawPointer?, _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?) {
    guard let dispatcherPointer, let format, let arguments else { return }
    var buffer = [CChar](repeating: 0, count: 512)
    guard vsnprintf(&buffer, buffer.count, format, arguments) >= 0 else { return }
    let message = String(decoding: buffer.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
    let dispatcher = Unmanaged<RequestDispatcher>.fromOpaque(dispatcherPointer).takeUnretainedValue()
    dispatcher.daemonMessage(message.trimmingCharacters(in: .whitespacesAndNewlines))
}
