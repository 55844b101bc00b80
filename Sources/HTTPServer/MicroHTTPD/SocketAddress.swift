import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A resolved address to bind, and the numeric form of peer addresses, through POSIX `getaddrinfo`.
struct SocketAddress {
    /// The bytes of a `sockaddr_in` or `sockaddr_in6`.
    let storage: sockaddr_storage
    let isIPv6: Bool

    /// Resolves a hostname (or numeric address) and port for listening; the first result wins.
    init(hostname: String, port: Int) throws(HTTPServerError) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(hostname, String(port), &hints, &results)
        guard status == 0, let first = results else {
            throw .invalidHostname(hostname, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(results) }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: Int(first.pointee.ai_addrlen)))
        }
        self.storage = storage
        self.isIPv6 = first.pointee.ai_family == AF_INET6
    }

    /// The numeric host of a peer address (`127.0.0.1`, `::1`), or `nil` for an unknown family.
    ///
    /// Read for every request: IPv4 goes through `inet_ntop` into a buffer on the stack
    /// (`getnameinfo` into a heap array was 1.8 % of a list of serials' server CPU); IPv6 keeps
    /// `getnameinfo`, which also writes a link-local address's scope (`fe80::1%eth0`).
    static func numericHost(_ address: UnsafePointer<sockaddr>) -> String? {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET_ADDRSTRLEN)) { host in
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                    withUnsafePointer(to: ipv4.pointee.sin_addr) { bytes in
                        guard inet_ntop(AF_INET, bytes, host.baseAddress, socklen_t(host.count)) != nil else { return nil }
                        return String(cString: host.baseAddress!)
                    }
                }
            }
        case AF_INET6:
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(NI_MAXHOST)) { host in
                guard getnameinfo(address, socklen_t(MemoryLayout<sockaddr_in6>.size), host.baseAddress, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 else {
                    return nil
                }
                return String(cString: host.baseAddress!)
            }
        default:
            return nil
        }
    }
}
