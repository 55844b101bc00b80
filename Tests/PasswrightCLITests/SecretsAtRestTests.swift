import Foundation
import PasswrightTesting
import Testing

/// The server's secrets — the admin token, the download link key, an encrypted signing key's
/// passphrase, API keys, webhook secrets, console session cookies, an invite token and a user's
/// password — appear nowhere they could leak from after a run that used them all, rotations and
/// refusals included: not in the database files, the server's log (at debug
/// level), the event log, the audit trail or any answer but the one that shows a new secret once.
@Suite("secrets at rest", .serialized)
struct SecretsAtRestTests {
    @Test("after a full run, no secret is in the database, the log, the events, the audit trail or an error")
    func noSecretAnywhere() async throws {
        try await withScratch { scratch in
            let adminToken = "admin-" + UUID().uuidString
            let linkKey = "linkkey" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
            let passphrase = "pp-" + UUID().uuidString
            let templates = try Samples.loyaltyTemplates(in: scratch)
            let identities = try await BuildTests.identitiesWithEncryptedKey(
                copying: try await DevIdentities.shared.folder(), into: scratch.appendingPathComponent("ids"), passphrase: passphrase)
            let data = scratch.appendingPathComponent("data")
            var secrets = [adminToken, linkKey, passphrase]
            var answers = ""
            let served = try await ServeChild.start([
                "--data-dir", data.path, "--templates", templates.path, "--identities", identities.path,
                "--public-url", "https://passes.example.test", "--push", "off", "--log-level", "debug",
            ], environment: ["PASSWRIGHT_ADMIN_TOKEN": adminToken, "PASSWRIGHT_LINK_KEY": linkKey, "PASSWRIGHT_KEY_PASSPHRASE": passphrase])
            let log = try await withCleanup { () -> String in
                let client = RawHTTPClient(port: served.port)
                func call(_ method: String, _ path: String, bearer: String = adminToken, json: String? = nil) async throws -> RawResponse {
                    let answer = try await client.send(method, path, headers: [("Authorization", "Bearer \(bearer)"), ("Content-Type", "application/json")],
                                                       body: json.map { Data($0.utf8) })
                    answers += answer.text + "\n"
                    return answer
                }
                /// The one answer that shows a new secret: kept out of `answers`, its secret added to the list.
                func revealing(_ method: String, _ path: String, json: String? = nil, secret: (RawResponse) throws -> String) async throws -> RawResponse {
                    let answer = try await client.send(method, path, headers: [("Authorization", "Bearer \(adminToken)"), ("Content-Type", "application/json")],
                                                       body: json.map { Data($0.utf8) })
                    secrets.append(try secret(answer))
                    return answer
                }
                let issued = try await call("POST", "/api/v1/passes", json: #"{"template":"loyalty","serialNumber":"S-1","data":{"member":{"id":"1","name":"A"},"points":1,"tier":"Gold"}}"#)
                #expect(issued.status == 201, "\(issued)")
                #expect(try await call("GET", "/api/v1/passes/pass.dev.passwright.loyalty/S-1/pkpass").status == 200, "the encrypted key signs")
                let key = { (answer: RawResponse) throws -> String in
                    try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])["secret"] as? String ?? ""
                }
                let created = try await revealing("POST", "/api/v1/keys", json: #"{"name":"crm","scopes":["passes:read"]}"#, secret: key)
                let apiKey = try key(created)
                let keyID = apiKey.split(separator: "_")[1]
                secrets.append(String(apiKey.split(separator: "_")[2]))
                #expect(try await call("GET", "/api/v1/passes/pass.dev.passwright.loyalty/S-1", bearer: apiKey).status == 200)
                #expect(try await call("GET", "/api/v1/keys", bearer: apiKey).status == 403)
                _ = try await revealing("POST", "/api/v1/keys/\(keyID)/rotate", secret: key)
                #expect(try await call("GET", "/api/v1/passes/pass.dev.passwright.loyalty/S-1", bearer: apiKey).status == 401, "the rotated key is refused")
                #expect(try await call("GET", "/api/v1/templates", bearer: adminToken + "x").status == 401)
                let hook = try await revealing("POST", "/api/v1/webhooks", json: #"{"url":"https://hooks.example.test/passwright"}"#, secret: key)
                let hookID = try #require(try JSONSerialization.jsonObject(with: hook.body) as? [String: Any])["webhook"] as? [String: Any]
                let rotated = try await revealing("POST", "/api/v1/webhooks/\(hookID?["id"] as? String ?? "")/rotate-secret", secret: key)
                #expect(rotated.status == 200, "\(rotated)")
                #expect(try await call("PATCH", "/api/v1/passes/pass.dev.passwright.loyalty/S-1", json: #"{"data":{"points":2}}"#).status == 200)
                // The console: the owner signs in with the admin token and invites a user, who sets a
                // password; both sessions' cookies, the invite token and the password are secrets too.
                func cookie(_ name: String, in answer: RawResponse) -> String? {
                    answer.headers.filter { $0.name.lowercased() == "set-cookie" }.compactMap { header -> String? in
                        let pair = header.value.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
                        return pair.count == 2 && pair[0] == Substring(name) ? String(pair[1]) : nil
                    }.first
                }
                func form(_ path: String, _ fields: [String: String], cookies: String) async throws -> RawResponse {
                    let body = fields.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&")
                    return try await client.send("POST", path, headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", cookies)], body: Data(body.utf8))
                }
                func csrf(_ page: RawResponse) throws -> String {
                    let text = page.text
                    let start = try #require(text.range(of: #"name="csrf" value=""#))
                    return String(text[start.upperBound...].prefix { $0 != "\"" })
                }
                let signIn = try await client.send("GET", "/console/sign-in")
                let pre = try #require(cookie("passwright_console_pre", in: signIn))
                let owner = try await form("/console/sign-in", ["csrf": try csrf(signIn), "token": adminToken], cookies: "passwright_console_pre=\(pre)")
                let ownerCookie = try #require(cookie("passwright_console", in: owner), "\(owner)")
                secrets.append(ownerCookie)
                let users = try await client.send("GET", "/console/users", headers: [("Cookie", "passwright_console=\(ownerCookie)")])
                let invited = try await form("/console/users", ["csrf": try csrf(users), "name": "Ada", "email": "ada@example.test", "role": "support"],
                                             cookies: "passwright_console=\(ownerCookie)")
                let link = try #require(invited.text.range(of: "/console/invite/"))
                let inviteToken = String(invited.text[link.upperBound...].prefix { $0.isHexDigit })
                secrets.append(inviteToken)
                let password = "pw-" + UUID().uuidString
                secrets.append(password)
                let invitePage = try await client.send("GET", "/console/invite/\(inviteToken)")
                let invitePre = try #require(cookie("passwright_console_pre", in: invitePage))
                let accepted = try await form("/console/invite/\(inviteToken)", ["csrf": try csrf(invitePage), "password": password],
                                              cookies: "passwright_console_pre=\(invitePre)")
                secrets.append(try #require(cookie("passwright_console", in: accepted), "\(accepted)"))
                #expect(try await call("GET", "/api/v1/events?limit=1000").status == 200)
                #expect(try await call("GET", "/api/v1/audit?limit=500").status == 200)
                let stopped = try await served.stop()
                return stopped.out + stopped.err
            } cleanup: {
                _ = try? await served.kill()
            }
            #expect(secrets.count == 12 && secrets.allSatisfy { $0.count >= 16 }, "every secret was captured: \(secrets.map(\.count))")
            var database = Data()
            for file in try FileManager.default.contentsOfDirectory(atPath: data.path) where file.hasPrefix("passwright.sqlite") {
                database += try Data(contentsOf: data.appendingPathComponent(file))
            }
            #expect(database.count > 100_000, "the database was read: \(database.count) bytes")
            #expect(log.contains("request"), "the log was read")
            for secret in secrets {
                let shown = String(secret.prefix(6)) + "…"
                #expect(database.range(of: Data(secret.utf8)) == nil, "\(shown) is in the database files")
                #expect(!log.contains(secret), "\(shown) is in the server's log")
                #expect(!answers.contains(secret), "\(shown) is in an answer, an event or an audit row")
            }
        }
    }
}
