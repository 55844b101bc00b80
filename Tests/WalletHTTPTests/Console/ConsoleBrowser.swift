import Foundation
import PasswrightTesting
import WalletCore

/// A browser's part in console tests over real HTTP: it keeps the session cookie, reads the CSRF
/// token from the page, and posts forms as a browser does.
struct ConsoleBrowser {
    let service: TestService
    var cookies: [String: String] = [:]

    init(_ service: TestService) { self.service = service }

    var cookieHeader: [(String, String)] {
        cookies.isEmpty ? [] : [("Cookie", cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))]
    }

    mutating func get(_ path: String) async throws -> RawResponse {
        let response = try await service.client.send("GET", path, headers: cookieHeader)
        keepCookies(response)
        return response
    }

    mutating func post(_ path: String, form fields: [(String, String)]) async throws -> RawResponse {
        let body = fields.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        let response = try await service.client.send(
            "POST", path, headers: cookieHeader + [("Content-Type", "application/x-www-form-urlencoded")], body: Data(body.utf8))
        keepCookies(response)
        return response
    }

    /// Posts a `multipart/form-data` form as a browser does for a form with a file input: `files`
    /// are (field, file name, bytes).
    mutating func post(_ path: String, multipart fields: [(String, String)], files: [(String, String, Data)]) async throws -> RawResponse {
        let boundary = "----passwright-test-\(UUID().uuidString)"
        var body = Data()
        for (name, value) in fields {
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8))
        }
        for (name, fileName, bytes) in files {
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(fileName)\"\r\nContent-Type: application/zip\r\n\r\n".utf8))
            body.append(bytes)
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        let response = try await service.client.send(
            "POST", path, headers: cookieHeader + [("Content-Type", "multipart/form-data; boundary=\(boundary)")], body: body)
        keepCookies(response)
        return response
    }

    /// Signs in with `token` as the sign-in page's form does.
    mutating func signIn(token: String? = nil) async throws -> RawResponse {
        let page = try await get("/console/sign-in")
        return try await post("/console/sign-in", form: [("csrf", Self.csrf(in: page) ?? ""), ("token", token ?? service.adminToken)])
    }

    /// The `csrf` hidden field of the first form on the page.
    static func csrf(in response: RawResponse) -> String? {
        let html = String(decoding: response.body, as: UTF8.self)
        guard let match = html.firstMatch(of: /name="csrf" value="([0-9a-f]+)"/) else { return nil }
        return String(match.output.1)
    }

    private mutating func keepCookies(_ response: RawResponse) {
        for (name, value) in response.headers where name.lowercased() == "set-cookie" {
            let pair = value.split(separator: ";")[0].split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { continue }
            cookies[pair[0]] = pair[1].isEmpty ? nil : pair[1]
        }
    }

    static func encode(_ text: String) -> String {
        QueryComponent.escaped(text).replacingOccurrences(of: "%20", with: "+")
    }
}
