internal import CMicroHTTPD
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A borrowed `MHD_Connection`, valid from the request's first callback until its completion callback.
///
/// `@unchecked Sendable`: it is a bare pointer that this type never frees; libmicrohttpd allows
/// `MHD_resume_connection` from any thread, and every other call here happens on the daemon thread
/// serving the connection, inside a callback.
struct MicroHTTPDConnection: @unchecked Sendable {
    /// What became of a response handed to the connection.
    enum QueueOutcome: Equatable {
        case queued
        /// A header was refused (e.g. it contains CR or LF); nothing was queued.
        case invalidHeader(String)
        /// libmicrohttpd refused the response; the connection will be closed.
        case refused
    }

    let pointer: OpaquePointer

    /// The request headers in wire order, duplicates kept.
    func headers() -> HTTPHeaders {
        var headers = HTTPHeaders()
        _ = withUnsafeMutablePointer(to: &headers) { headersPointer in
            MHD_get_connection_values_n(pointer, .HEADER_KIND, collectHeader, headersPointer)
        }
        return headers
    }

    /// The peer's numeric IP address.
    func remoteAddress() -> String? {
        passwright_mhd_client_address(pointer).flatMap(SocketAddress.numericHost)
    }

    /// Identifies the connection while it is open (its address; libmicrohttpd may reuse it afterwards).
    var key: Int {
        Int(bitPattern: pointer)
    }

    /// Shuts the socket down in both directions, from any thread: libmicrohttpd then sees the peer gone
    /// and closes the connection on its own thread. Only valid while the connection is open.
    func shutDown() {
        let socket = passwright_mhd_connection_fd(pointer)
        if socket >= 0 { _ = Glibc.shutdown(socket, Int32(SHUT_RDWR)) }
    }

    /// Reads and drops, without waiting, up to `limit` bytes the client sent that no request will read:
    /// the rest of an upload answered `413` from its head. Closing a socket with unread input makes the
    /// kernel reset the connection instead of ending it, and a client still writing its upload can lose
    /// the response it has not read yet; libmicrohttpd has already sent the response and shut its side.
    /// Called just before libmicrohttpd closes the socket, on the daemon thread.
    func discardUnreadInput(upTo limit: Int) {
        let socket = passwright_mhd_connection_fd(pointer)
        guard socket >= 0 else { return }
        withUnsafeTemporaryAllocation(byteCount: 16 * 1024, alignment: 1) { buffer in
            var dropped = 0
            while dropped < limit {
                let count = recv(socket, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
                guard count > 0 else { return }
                dropped += count
            }
        }
    }

    /// Parks the connection so the daemon thread is free while an `async` handler runs.
    func suspend() {
        MHD_suspend_connection(pointer)
    }

    /// Wakes the connection; the daemon calls the access handler again, which queues the response.
    func resume() {
        MHD_resume_connection(pointer)
    }

    /// Copies the response into libmicrohttpd and queues it. `Content-Length` is left to libmicrohttpd,
    /// which computes it from the body (and refuses one set by hand).
    func queue(_ response: HTTPResponse) -> QueueOutcome {
        let mhdResponse = response.body.withUnsafeBytes { body in
            MHD_create_response_from_buffer(body.count, UnsafeMutableRawPointer(mutating: body.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let mhdResponse else { return .refused }
        defer { MHD_destroy_response(mhdResponse) }
        for field in response.headers where !field.name.caseInsensitiveEquals("Content-Length") {
            guard MHD_add_response_header(mhdResponse, field.name, field.value) == .YES else {
                return .invalidHeader(field.name)
            }
        }
        return MHD_queue_response(pointer, UInt32(response.status.code), mhdResponse) == .YES ? .queued : .refused
    }
}

/// `MHD_KeyValueIteratorN` appending each header to the `HTTPHeaders` passed as context.
private func collectHeader(
    context: UnsafeMutableRawPointer?,
    kind: MHD_ValueKind,
    key: UnsafePointer<CChar>?,
    keyLength: Int,
    value: UnsafePointer<CChar>?,
    valueLength: Int
) -> MHD_Result {
    guard let context, let key else { return .YES }
    let headers = context.assumingMemoryBound(to: HTTPHeaders.self)
    let name = String(decoding: UnsafeRawBufferPointer(start: key, count: keyLength), as: UTF8.self)
    let text = value.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: valueLength), as: UTF8.self) } ?? ""
    headers.pointee.add(name: name, value: text)
    return .YES
}
