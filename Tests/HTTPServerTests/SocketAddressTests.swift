import Foundation
@testable import HTTPServer
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Peer addresses in their numeric form, as requests carry them (`remoteAddress`).
@Suite struct SocketAddressTests {
    @Test(arguments: ["10.1.2.3", "127.0.0.1", "255.255.255.255", "0.0.0.0", "::1", "2001:db8::42", "::ffff:10.1.2.3"])
    func aPeerIsItsNumericForm(text: String) {
        #expect(Self.numericHost(of: text) == text)
    }

    @Test func anUnknownFamilyHasNoHost() {
        var address = sockaddr()
        address.sa_family = sa_family_t(AF_UNIX)
        #expect(SocketAddress.numericHost(&address) == nil)
    }

    /// `text` parsed into the peer address of its family, then turned back into text.
    static func numericHost(of text: String) -> String? {
        var storage = sockaddr_storage()
        let family = text.contains(":") ? AF_INET6 : AF_INET
        return withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { $0.pointee.sa_family = sa_family_t(family) }
            let parsed = family == AF_INET
                ? pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet_pton(AF_INET, text, &$0.pointee.sin_addr) }
                : pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { inet_pton(AF_INET6, text, &$0.pointee.sin6_addr) }
            guard parsed == 1 else { return "not an address: \(text)" }
            return pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress.numericHost($0) }
        }
    }
}
