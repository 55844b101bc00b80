import Foundation
import HTTPClient
import PassModel
import WalletCore
import ZipArchive

/// Plays Wallet's whole life of a pass against the deployment with a throwaway pass: issued through the
/// admin API, registered, listed, fetched (and fetched again with `If-Modified-Since`), unregistered,
/// a log line sent, its download link followed, then voided. Every call goes to the URLs the pass
/// itself carries, as a phone's would.
struct DoctorPassWalk: Sendable {
    let http: DoctorHTTP
    let token: String
    let template: String?
    let record: JSONObject?

    /// Holds what the walk learnt so far; each step adds its finding.
    private struct Walk {
        var findings: [DoctorFinding] = []
        mutating func fail(_ check: String, _ detail: String, fix: String, effect: String) {
            findings.append(DoctorFinding(check: check, result: .fail, detail: detail, fix: fix, effect: effect))
        }
    }

    func run() async -> [DoctorFinding] {
        var walk = Walk()
        guard let issued = await issue(&walk) else { return walk.findings }
        let passPath = "/api/v1/passes/\(issued.passTypeIdentifier)/\(issued.serialNumber)"
        if let pass = await passJSON(passPath, &walk) {
            await protocolSteps(issued, pass: pass, &walk)
        }
        await download(issued, &walk)
        switch await http.send("PATCH", passPath, headers: admin + [(name: "Content-Type", value: "application/json")], body: Data(#"{"voided":true}"#.utf8)) {
        case .success(let response) where response.status == 200:
            walk.findings.append(.pass("pass.void", "the throwaway pass \(issued.serialNumber) is voided"))
        case .success(let response):
            walk.fail("pass.void", "\(response.status): \(response.problemDetail)", fix: "Void \(issued.serialNumber) by hand (PATCH {\"voided\": true})", effect: "The throwaway pass is not left valid.")
        case .failure(let error):
            walk.fail("pass.void", error.description, fix: "Void \(issued.serialNumber) by hand", effect: "The throwaway pass is not left valid.")
        }
        return walk.findings
    }

    private var admin: [(name: String, value: String)] { [(name: "Authorization", value: "Bearer \(token)")] }

    /// Picks the template and issues the throwaway pass.
    private func issue(_ walk: inout Walk) async -> IssueResponse? {
        guard case .success(let listed) = await http.send("GET", "/api/v1/templates", headers: admin), listed.status == 200,
              let list = try? WireJSON.decoder().decode(TemplateList.self, from: listed.body) else {
            let seen: String = switch await http.send("GET", "/api/v1/templates", headers: admin) {
            case .success(let response): "\(response.status): \(response.problemDetail)"
            case .failure(let error): error.description
            }
            walk.fail("pass.issue", "the admin API did not list the templates (\(seen))",
                      fix: "Check PASSWRIGHT_ADMIN_TOKEN and that /api/ reaches passwright", effect: "doctor can issue a throwaway pass and play the device protocol.")
            return nil
        }
        let ready = list.templates.filter { $0.status == .ready }
        guard let chosen = template.map({ name in ready.first { $0.name == name } }) ?? ready.first else {
            walk.fail("pass.issue", template.map { "no ready template named \($0)" } ?? "no template is ready",
                      fix: "Publish a template (passwright templates / the console) and fix what /readyz names", effect: "Passes can be issued.")
            return nil
        }
        let data = record ?? Self.placeholderRecord(chosen.placeholders ?? [])
        let body = JSONValue.object(["template": .string(chosen.name), "data": .object(data)]).serialized(sortedKeys: true)
        switch await http.send("POST", "/api/v1/passes", headers: admin + [(name: "Content-Type", value: "application/json")], body: body) {
        case .success(let response) where response.status == 201:
            guard let issued = try? WireJSON.decoder().decode(IssueResponse.self, from: response.body) else {
                walk.fail("pass.issue", "201 with a body that is not an IssueResponse", fix: "Check that /api/ reaches passwright", effect: "Passes can be issued.")
                return nil
            }
            walk.findings.append(.pass("pass.issue", "\(issued.serialNumber) from template \(chosen.name)"))
            return issued
        case .success(let response):
            walk.fail("pass.issue", "template \(chosen.name): \(response.status): \(response.problemDetail)",
                      fix: record == nil ? "Give a record the template accepts: --record FILE" : "Fix the record in --record",
                      effect: "doctor can issue a throwaway pass and play the device protocol.")
        case .failure(let error):
            walk.fail("pass.issue", error.description, fix: "Check that /api/ reaches passwright", effect: "Passes can be issued.")
        }
        return nil
    }

    /// `webServiceURL` and `authenticationToken` of the signed pass.
    private func passJSON(_ passPath: String, _ walk: inout Walk) async -> (webService: String, token: String)? {
        guard case .success(let response) = await http.send("GET", passPath + "/pkpass", headers: admin), response.status == 200,
              let archive = try? ZipReader(data: response.body), let json = try? archive.data(for: "pass.json"),
              case .object(let pass)? = try? JSONValue.parse(json) else {
            walk.fail("pass.webServiceURL", "the signed pass could not be read", fix: "Check the server's log", effect: "Passes can be added to Wallet.")
            return nil
        }
        guard case .string(let webService)? = pass["webServiceURL"], case .string(let token)? = pass["authenticationToken"] else {
            walk.fail("pass.webServiceURL", "the pass has no webServiceURL", fix: "Start the server with --public-url \(http.base.absoluteString)",
                      effect: "Wallet registers the pass for updates; today it never asks for any.")
            return nil
        }
        let expected = http.base.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + "/wallet/"
        if webService != expected {
            walk.fail("pass.webServiceURL", "passes carry \(webService), not \(expected)",
                      fix: "Start the server with --public-url \(http.base.absoluteString) (PASSWRIGHT_PUBLIC_URL)",
                      effect: "Phones call the URL this check reached; today they call another one.")
        } else {
            walk.findings.append(.pass("pass.webServiceURL", webService))
        }
        return (webService, token)
    }

    private func protocolSteps(_ issued: IssueResponse, pass: (webService: String, token: String), _ walk: inout Walk) async {
        let device = "doctor" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let root = pass.webService.hasSuffix("/") ? pass.webService : pass.webService + "/"
        let registration = root + "v1/devices/\(device)/registrations/\(issued.passTypeIdentifier)/\(issued.serialNumber)"
        let auth = [(name: "Authorization", value: "ApplePass \(pass.token)")]
        let json = [(name: "Content-Type", value: "application/json")]
        let pushToken = String(repeating: "0", count: 64)
        let fix = "Pass /wallet/ to passwright unchanged, with the Authorization header"
        let effect = "Phones register the pass and receive its updates."

        guard await step("wallet.register", "POST", registration, headers: auth + json,
                         body: Data(#"{"pushToken":"\#(pushToken)"}"#.utf8), expect: [201, 200], fix: fix, effect: effect, &walk) != nil else { return }
        if let listed = await step("wallet.list", "GET", root + "v1/devices/\(device)/registrations/\(issued.passTypeIdentifier)",
                                   expect: [200], fix: fix, effect: effect, &walk), !listed.text.contains(issued.serialNumber) {
            walk.findings.removeLast()
            walk.fail("wallet.list", "the device's list does not name \(issued.serialNumber)", fix: "Check the server's log", effect: effect)
        }
        let passURL = root + "v1/passes/\(issued.passTypeIdentifier)/\(issued.serialNumber)"
        if let fetched = await step("wallet.fetch", "GET", passURL, headers: auth, expect: [200], fix: fix, effect: effect, &walk) {
            let type = fetched[header: "content-type"] ?? "none"
            if !type.hasPrefix("application/vnd.apple.pkpass") {
                walk.findings.removeLast()
                walk.fail("wallet.fetch", "Content-Type \(type)", fix: "Let the proxy keep passwright's Content-Type", effect: "Wallet accepts the updated pass.")
            } else if let modified = fetched[header: "last-modified"] {
                _ = await step("wallet.notModified", "GET", passURL, headers: auth + [(name: "If-Modified-Since", value: modified)],
                               expect: [304], fix: "Let the proxy pass If-Modified-Since through (no caching of /wallet/)",
                               effect: "Phones skip downloading passes that did not change.", &walk)
            }
        }
        _ = await step("wallet.unregister", "DELETE", registration, headers: auth, expect: [200], fix: fix, effect: effect, &walk)
        _ = await step("wallet.log", "POST", root + "v1/log", headers: json,
                       body: Data(#"{"logs":["passwright doctor: device protocol check"]}"#.utf8), expect: [200],
                       fix: fix, effect: "Device errors reach the server's log.", &walk)
    }

    /// One call; a pass finding when its status is one of `expect`, else a failure naming what came.
    private func step(_ check: String, _ method: String, _ url: String, headers: [(name: String, value: String)] = [], body: Data? = nil,
                      expect: Set<Int>, fix: String, effect: String, _ walk: inout Walk) async -> HTTPClientResponse? {
        switch await http.send(method, url, headers: headers, body: body) {
        case .success(let response) where expect.contains(response.status):
            walk.findings.append(.pass(check, "\(method) → \(response.status)"))
            return response
        case .success(let response):
            walk.fail(check, "\(method) answered \(response.status), not \(expect.sorted().map(String.init).joined(separator: " or "))", fix: fix, effect: effect)
        case .failure(let error):
            walk.fail(check, error.description, fix: fix, effect: effect)
        }
        return nil
    }

    /// The holder's link opens its page, and the pass under it comes with the type Safari needs to
    /// offer "Add to Wallet".
    private func download(_ issued: IssueResponse, _ walk: inout Walk) async {
        switch await http.send("GET", issued.downloadURL) {
        case .success(let response) where response.status == 200 && (response[header: "content-type"] ?? "").hasPrefix("text/html"):
            break
        case .success(let response):
            walk.fail("download", "the holder page answered \(response.status) \(response[header: "content-type"] ?? "")", fix: "Pass /passes/ to passwright",
                      effect: "Holders can open the pass's page from its link.")
            return
        case .failure(let error):
            walk.fail("download", error.description, fix: "Pass /passes/ to passwright", effect: "Holders can open the pass's page from its link.")
            return
        }
        guard let query = issued.downloadURL.firstIndex(of: "?") else {
            walk.fail("download", "the link \(issued.downloadURL) has no query", fix: "Upgrade passwright", effect: "Holders can add the pass from its link.")
            return
        }
        let passURL = issued.downloadURL[..<query] + "/pass.pkpass" + issued.downloadURL[query...]
        switch await http.send("GET", String(passURL)) {
        case .success(let response) where response.status == 200:
            let type = response[header: "content-type"] ?? "none"
            if type.hasPrefix("application/vnd.apple.pkpass") {
                walk.findings.append(.pass("download", "200, \(type)"))
            } else {
                walk.fail("download", "200 with Content-Type \(type)", fix: "Let the proxy keep passwright's Content-Type application/vnd.apple.pkpass",
                          effect: "Safari offers to add the pass to Wallet instead of showing or saving a file.")
            }
        case .success(let response):
            walk.fail("download", "the download link answered \(response.status)", fix: "Pass /passes/ to passwright", effect: "Holders can add the pass from its link.")
        case .failure(let error):
            walk.fail("download", error.description, fix: "Pass /passes/ to passwright", effect: "Holders can add the pass from its link.")
        }
    }

    /// Each placeholder (`member.name`) given its own name as the value, nested at its path: enough for
    /// templates whose placeholders are all text.
    static func placeholderRecord(_ placeholders: [String]) -> JSONObject {
        var record = JSONObject()
        for placeholder in placeholders {
            insert(.string(placeholder), at: placeholder.split(separator: ".").map(String.init)[...], into: &record)
        }
        return record
    }

    private static func insert(_ value: JSONValue, at path: ArraySlice<String>, into object: inout JSONObject) {
        guard let first = path.first else { return }
        if path.count == 1 { object[first] = value; return }
        var child: JSONObject = if case .object(let existing)? = object[first] { existing } else { JSONObject() }
        insert(value, at: path.dropFirst(), into: &child)
        object[first] = .object(child)
    }
}
