import Foundation
import HTTPServer
import PasswrightTesting
import Testing
import WalletCore

/// One query-component escaper for every link the server writes (download links, the audit API's
/// `Link`, the console's redirects and filters): only RFC 3986's unreserved ASCII stays as it is, and
/// the server's own decoder gives back the text.
@Suite struct QueryComponentTests {
    static let awkward = ["Seat 12&13=ü", "a+b c", "50%#frag", "line\nbreak", "path/with?query", "日本", "~-._", ""]

    @Test func escapedComponentsAreASCIIAndDecodeBack() {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~%")
        for text in Self.awkward {
            let escaped = QueryComponent.escaped(text)
            #expect(escaped.allSatisfy(unreserved.contains), "\(escaped)")
            #expect(PercentDecoding.decode(escaped, plusIsSpace: true) == text, "\(text) → \(escaped)")
        }
        #expect(QueryComponent.escaped("Seat 12&13=ü") == "Seat%2012%2613%3D%C3%BC")
        #expect(QueryComponent.query([("target", "a&b"), ("before", "7")]) == "target=a%26b&before=7")
    }

    @Test("the audit API's next-page Link keeps a filter with '&', spaces and a non-ASCII letter, in ASCII")
    func theAuditLinkCarriesAnAwkwardFilter() async throws {
        try await withService { server in
            let serial = "Seat 12&13 ü"
            _ = try await server.issue(serial: serial)
            let patched = try await server.api("PATCH", "/api/v1/passes/pass.dev.passwright.loyalty/\(PathSegment.escaped(serial))", json: ["voided": true])
            #expect(patched.status == 200, "\(patched)")
            let target = "pass pass.dev.passwright.loyalty/\(serial)"
            let first = try await server.api("GET", "/api/v1/audit?\(QueryComponent.query([("target", target), ("limit", "1")]))")
            #expect(try first.json()["entries"][0]["action"].string == "pass.void", "\(first)")
            let link = try #require(first.header("Link"))
            #expect(link.unicodeScalars.allSatisfy { $0.isASCII }, "\(link)")
            let next = try #require(link.split(separator: ">").first.map { String($0.dropFirst()) })
            let second = try await server.api("GET", next)
            #expect((try second.json()["entries"].array ?? []).map { $0["action"].string } == ["pass.issue"], "\(next): \(second)")
        }
    }
}
