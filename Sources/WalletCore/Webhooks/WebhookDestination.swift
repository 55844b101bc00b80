import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where a webhook may be delivered: `https`, or plain `http` to this machine's loopback (a sidecar, a
/// development receiver); never to link-local or cloud metadata addresses, which would let whoever
/// configures an endpoint read the host's instance credentials. The name is resolved once per
/// delivery and the connection pinned to the address checked.
enum WebhookDestination {
    /// Checks a URL an endpoint is created or changed with; the reason names what to use instead.
    static func check(_ text: String) throws(ServiceError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            throw .invalid("url '\(text)' is not an absolute http(s) URL")
        }
        guard url.user == nil, url.password == nil else { throw .invalid("url must not carry a user name or password; authenticate with the signature") }
        guard url.fragment == nil else { throw .invalid("url must not have a #fragment") }
        switch scheme {
        case "https": break
        case "http" where isLoopbackName(host): break
        case "http": throw .invalid("url must be https (plain http only to 127.0.0.1, ::1 or localhost), not '\(text)'")
        default: throw .invalid("url must be https, not \(scheme)")
        }
        if let address = literalAddress(host), let reason = forbidden(address) {
            throw .invalid("url points at \(host), \(reason); deliveries never go there")
        }
        return url
    }

    /// Resolves the URL's host and returns the address to connect to; throws naming why there is none
    /// allowed. Blocking (DNS): call it off the cooperative pool.
    static func resolve(_ url: URL) throws(ServiceError) -> String {
        guard let host = url.host else { throw .invalid("no host in \(url.absoluteString)") }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0, let list else { throw .invalid("\(host) does not resolve (\(String(cString: gai_strerror(status))))") }
        defer { freeaddrinfo(list) }
        var addresses: [String] = []
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let current = entry {
            entry = current.pointee.ai_next
            var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard getnameinfo(current.pointee.ai_addr, current.pointee.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            addresses.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        guard let first = addresses.first else { throw .invalid("\(host) has no address") }
        for address in addresses {
            if let reason = forbidden(address) { throw .invalid("\(host) resolves to \(address), \(reason); not delivered") }
        }
        if url.scheme?.lowercased() == "http", !addresses.allSatisfy(isLoopbackAddress) {
            throw .invalid("\(host) is not on this machine's loopback; plain http is delivered only there")
        }
        return first
    }

    /// Why deliveries never go to `address`, or `nil`.
    static func forbidden(_ address: String) -> String? {
        let lower = address.lowercased()
        if lower.hasPrefix("169.254.") || lower.hasPrefix("::ffff:169.254.") { return "a link-local address (cloud metadata lives there)" }
        if lower.hasPrefix("fe8") || lower.hasPrefix("fe9") || lower.hasPrefix("fea") || lower.hasPrefix("feb") { return "a link-local address" }
        if ["fd00:ec2::254", "100.100.100.200", "168.63.129.16"].contains(lower) { return "a cloud metadata address" }
        if lower == "0.0.0.0" || lower == "::" || lower.hasPrefix("0.") { return "an unspecified address" }
        return nil
    }

    static func isLoopbackName(_ host: String) -> Bool {
        let lower = host.lowercased()
        return lower == "localhost" || isLoopbackAddress(lower.trimmingCharacters(in: CharacterSet(charactersIn: "[]")))
    }

    static func isLoopbackAddress(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.")
    }

    private static func literalAddress(_ host: String) -> String? {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, bare, &v4) == 1 || inet_pton(AF_INET6, bare, &v6) == 1 ? bare : nil
    }
}
