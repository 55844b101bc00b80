/// What RFC 9110 and RFC 9112 require of a request head that libmicrohttpd 0.9 lets through, checked
/// before routing so that no handler ever sees an ambiguous request: two `Authorization` lines (which
/// one is checked?), two lengths or a length with `Transfer-Encoding` (request smuggling), bytes a
/// request target cannot contain (they would be silently repaired into another path).
enum RequestHeadCheck {
    /// Fields a request may carry once; a second line makes it ambiguous (RFC 9110 §5.3, RFC 9112 §3.2, §6.3).
    static let singletonFields = ["Host", "Authorization", "Content-Length", "Content-Type"]
    private static let contentLength = singletonFields.firstIndex(of: "Content-Length")!

    /// Why the head must be refused with `400`, or `nil` when it is acceptable.
    static func refusal(method: String, target: String, headers: HTTPHeaders) -> String? {
        guard !method.isEmpty, method.utf8.allSatisfy(isTokenByte) else { return "the method is not an HTTP token" }
        // Visible ASCII only: anything else must be percent-encoded (RFC 3986); invalid UTF-8 arrives here
        // already replaced by U+FFFD, which is caught too.
        guard target.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            return "the request target contains a byte that must be percent-encoded"
        }
        // One pass over the fields: how often each singleton appears, and whether a length and a
        // transfer coding were both sent.
        var singletonCounts = [Int](repeating: 0, count: singletonFields.count)
        var hasTransferEncoding = false
        for field in headers {
            guard !field.name.isEmpty, field.name.utf8.allSatisfy(isTokenByte) else {
                return "a header name is not an HTTP token (no spaces before the colon)"
            }
            guard !field.value.utf8.contains(where: { $0 == 0x00 || $0 == 0x0A || $0 == 0x0D }) else {
                return "header \(field.name) contains CR, LF or NUL"
            }
            if let index = singletonFields.firstIndex(where: field.name.caseInsensitiveEquals) {
                singletonCounts[index] += 1
            } else if field.name.caseInsensitiveEquals("Transfer-Encoding") {
                hasTransferEncoding = true
            }
        }
        if let index = singletonCounts.firstIndex(where: { $0 > 1 }) {
            return "\(singletonFields[index]) appears more than once"
        }
        if hasTransferEncoding, singletonCounts[contentLength] > 0 {
            return "Content-Length and Transfer-Encoding must not be sent together"
        }
        return nil
    }

    /// The origin form (`/path?query`) of an absolute-form target (`http://host/path`), which a server
    /// must accept (RFC 9112 §3.2.2); other targets are returned unchanged.
    static func originForm(_ target: String) -> String {
        if target.utf8.first == UInt8(ascii: "/") { return target }  // the origin form already, as nearly always
        for scheme in ["http://", "https://"] where target.utf8.count > scheme.utf8.count && target.lowercased().hasPrefix(scheme) {
            let authorityAndPath = target.dropFirst(scheme.count)
            guard let slash = authorityAndPath.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
            let rest = authorityAndPath[slash...]
            return rest.hasPrefix("?") ? "/" + rest : String(rest)
        }
        return target
    }

    /// RFC 9110 §5.6.2 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
