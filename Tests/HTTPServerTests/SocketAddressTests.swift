import Foundation
@testable import HTTPServer
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Peer addresses in their numeric form, as requests carry them (`remoteAddress`).
@Suite struct SocketAddressTests {
    @Test(arguments: ["10.1.2.3", "127.0.0.1", "255.255.255.255", "0.0.0.0"])
    func anIPv4PeerIsItsDottedQuad(text: String) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        #expect(inet_pton(AF_INET, text, &address.sin_addr) == 1)
        let host = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, SocketAddress.numericHost) }
        #expect(host == text)
    }

    @Test(arguments: ["::1", "2001:db8::42", "::ffff:10.1.2.3"])
    func anIPv6PeerIsItsCompressedForm(text: String) {
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        #expect(inet_pton(AF_INET6, text, &address.sin6_addr) == 1)
        let host = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, SocketAddress.numericHost) }
        #expect(host == text)
    }

    @Test func anUnknownFamilyHasNoHost() {
        var address = sockaddr()
        address.sa_family = sa_family_t(AF_UNIX)
        #expect(SocketAddress.numericHost(&address) == nil)
    }
}
