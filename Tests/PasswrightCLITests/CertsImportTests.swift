import Foundation
import PasswrightTesting
import Signing
import Testing

/// The forms Apple's portal and Keychain hand a Pass Type ID certificate out in.
enum CertificateForm: String, CaseIterable, Sendable {
    case derCer, pem, legacyP12
}

/// `certs request` → a certificate for its CSR → `certs import`: the path from nothing to an identity
/// the server signs with, checked with the real `openssl` and the real binary.
@Suite("certs request and import")
struct CertsImportTests {
    static let passType = "pass.com.example.imported"
    static let team = "ABCDE12345"
    static let password = "correct horse battery staple"

    /// `certs request` in `folder/request`, with the key encrypted when `passphrase` is given.
    static func request(in folder: URL, passphrase: String? = nil, name: String = "request") async throws -> (csr: URL, key: URL) {
        let out = folder.appendingPathComponent(name, isDirectory: true)
        let environment = passphrase.map { ["PASSWRIGHT_KEY_PASSPHRASE": $0] } ?? [:]
        let result = try await CLI.run(["certs", "request", "--pass-type-id", passType, "--team-id", team, "--out", out.path], environment: environment)
        #expect(result.status == 0, "\(result)")
        return (out.appendingPathComponent("\(passType).csr"), out.appendingPathComponent("\(passType).key.pem"))
    }

    /// The development CA in `folder/identities` signs `csr` through `certs dev --csr`; returns the `.cer`.
    static func sign(_ csr: URL, identities: URL) async throws -> URL {
        let result = try await CLI.run(["certs", "dev", "--csr", csr.path, "--out", identities.path])
        #expect(result.status == 0, "\(result)")
        return csr.deletingPathExtension().appendingPathExtension("cer")
    }

    @Test("certs request writes a CSR openssl verifies, for an RSA-2048 key with the pass type and team in its subject")
    func requestParses() async throws {
        try await withScratch { folder in
            let (csr, key) = try await Self.request(in: folder)
            let parsed = try OpenSSL.run(["req", "-verify", "-noout", "-text", "-nameopt", "RFC2253", "-in", csr.path])
            #expect(parsed.succeeded, "\(parsed)")
            #expect(parsed.err.contains("verify OK") || parsed.out.contains("verify OK"), "\(parsed)")
            #expect(parsed.out.contains("Subject: OU=\(Self.team),CN=Pass Type ID: \(Self.passType),UID=\(Self.passType)"), "\(parsed)")
            #expect(parsed.out.contains("Public-Key: (2048 bit)"), "\(parsed)")
            let mode = try #require(FileManager.default.attributesOfItem(atPath: key.path)[.posixPermissions] as? NSNumber).intValue
            #expect(mode & 0o777 == 0o600)
            #expect(try String(contentsOf: key, encoding: .utf8).contains("BEGIN PRIVATE KEY"))
        }
    }

    @Test("certs request encrypts the key with the passphrase from the environment, and never replaces a key")
    func requestEncrypts() async throws {
        try await withScratch { folder in
            let (_, key) = try await Self.request(in: folder, passphrase: Self.password)
            #expect(try String(contentsOf: key, encoding: .utf8).contains("BEGIN ENCRYPTED PRIVATE KEY"))
            let opened = try OpenSSL.run(["pkey", "-in", key.path, "-passin", "env:PW", "-noout", "-text"], environment: ["PW": Self.password])
            #expect(opened.succeeded && opened.out.contains("2048 bit"), "\(opened)")
            let again = try await CLI.run(["certs", "request", "--pass-type-id", Self.passType, "--team-id", Self.team,
                                           "--out", key.deletingLastPathComponent().path])
            #expect(again.status == 1, "\(again)")
            #expect(again.err.contains("exists already"), "\(again)")
        }
    }

    @Test("certs request without --team-id is a usage error")
    func requestUsage() async throws {
        let result = try await CLI.run(["certs", "request", "--pass-type-id", Self.passType])
        #expect(result.status == 64, "\(result)")
        #expect(result.err.contains("--team-id is required"), "\(result)")
    }

    @Test("a certificate for the CSR imports as DER .cer, PEM and legacy .p12, and the identity builds a pass verify accepts",
          arguments: CertificateForm.allCases)
    func importsAndBuilds(form: CertificateForm) async throws {
        try await withScratch { folder in
            let identities = folder.appendingPathComponent("identities", isDirectory: true)
            let (csr, key) = try await Self.request(in: folder, passphrase: Self.password)
            let cer = try await Self.sign(csr, identities: identities)
            let pw = ["PW": Self.password]
            var arguments = ["certs", "import", "--out", identities.path]
            switch form {
            case .derCer:
                arguments += [cer.path]
            case .pem:
                let pem = folder.appendingPathComponent("pass.pem")
                try OpenSSL.require(["x509", "-inform", "DER", "-in", cer.path, "-out", pem.path])
                arguments += [pem.path, "--key", key.path]
            case .legacyP12:
                let pem = folder.appendingPathComponent("pass.pem")
                let p12 = folder.appendingPathComponent("Certificates.p12")
                try OpenSSL.require(["x509", "-inform", "DER", "-in", cer.path, "-out", pem.path])
                try OpenSSL.require(["pkcs12", "-export", "-legacy", "-in", pem.path, "-inkey", key.path, "-passin", "env:PW",
                                     "-passout", "env:PW", "-out", p12.path], environment: pw)
                arguments += [p12.path]
            }
            let imported = try await CLI.run(arguments, environment: ["PASSWRIGHT_KEY_PASSPHRASE": Self.password])
            #expect(imported.status == 0, "\(imported)")
            #expect(imported.out.contains("Imported \(Self.passType) (team \(Self.team))"), "\(imported)")
            let written = identities.appendingPathComponent("\(Self.passType)/private-key.pem")
            #expect(try String(contentsOf: written, encoding: .utf8).contains("BEGIN ENCRYPTED PRIVATE KEY"))

            let template = try Samples.copy("loyalty", into: folder) { pass in
                pass["passTypeIdentifier"] = Self.passType
                pass["teamIdentifier"] = Self.team
            }
            let build = try await CLI.run(["build", template.path, "--data", Samples.sample("loyalty.json").path, "--identities", identities.path,
                                           "--out", folder.appendingPathComponent("pass.pkpass").path],
                                          environment: ["PASSWRIGHT_KEY_PASSPHRASE": Self.password])
            #expect(build.status == 0, "\(build)")
            let verify = try await PassChecks.passwrightVerify(folder.appendingPathComponent("pass.pkpass"),
                                                               rootCA: identities.appendingPathComponent("dev-ca/root.pem"))
            #expect(verify.status == 0, "\(verify)")
        }
    }

    @Test("an Order Type ID request, its certificate and the import give an identity that signs the sample order, which verify accepts")
    func orderTypeRequestImportsAndSigns() async throws {
        try await withScratch { folder in
            let orderType = "order.com.example.imported"
            let out = folder.appendingPathComponent("request", isDirectory: true)
            let requested = try await CLI.run(["certs", "request", "--order-type-id", orderType, "--team-id", Self.team, "--out", out.path])
            #expect(requested.status == 0 && requested.out.contains("Order Type ID Certificate"), "\(requested)")
            let csr = out.appendingPathComponent("\(orderType).csr")
            let parsed = try OpenSSL.run(["req", "-noout", "-subject", "-nameopt", "RFC2253", "-in", csr.path])
            #expect(parsed.out.contains("CN=Order Type ID: \(orderType),UID=\(orderType)"), "\(parsed)")
            let both = try await CLI.run(["certs", "request", "--order-type-id", orderType, "--pass-type-id", Self.passType, "--team-id", Self.team])
            #expect(both.status == 64 && both.err.contains("not both"), "a usage error (EX_USAGE): \(both)")

            let identities = folder.appendingPathComponent("identities", isDirectory: true)
            let cer = try await Self.sign(csr, identities: identities)
            let imported = try await CLI.run(["certs", "import", cer.path, "--out", identities.path])
            #expect(imported.status == 0 && imported.out.contains("Imported \(orderType) (team \(Self.team))"), "\(imported)")
            #expect(FileManager.default.fileExists(atPath: identities.appendingPathComponent("\(orderType)/private-key.pem").path))

            // The sample order, retyped to the imported identity, signs and verifies.
            let order = folder.appendingPathComponent("order", isDirectory: true)
            try FileManager.default.copyItem(at: Repository.templates.appendingPathComponent("orders/shop"), to: order)
            let json = order.appendingPathComponent("order.json")
            var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
            object["orderTypeIdentifier"] = orderType
            try JSONSerialization.data(withJSONObject: object).write(to: json)
            let file = folder.appendingPathComponent("shop.order")
            let build = try await CLI.run(["build", order.path, "--identities", identities.path, "--out", file.path])
            #expect(build.status == 0, "\(build)")
            let verify = try await CLI.run(["verify", file.path, "--ca", identities.appendingPathComponent("dev-ca/root.pem").path])
            #expect(verify.status == 0 && verify.out.contains("valid"), "\(verify)")
        }
    }

    @Test("a certificate with another request's key is refused, naming the key and what to do")
    func mismatchRefused() async throws {
        try await withScratch { folder in
            let identities = folder.appendingPathComponent("identities", isDirectory: true)
            let (csr, _) = try await Self.request(in: folder)
            let (_, otherKey) = try await Self.request(in: folder, name: "other")
            let cer = try await Self.sign(csr, identities: identities)
            let result = try await CLI.run(["certs", "import", cer.path, "--key", otherKey.path, "--out", identities.path])
            #expect(result.status == 1, "\(result)")
            #expect(result.err.hasPrefix("Error: \(cer.path): the certificate is not for the private key \(otherKey.path)"), "\(result)")
            #expect(result.err.contains("Pass --key with the key 'passwright certs request' wrote"), "\(result)")
            #expect(!FileManager.default.fileExists(atPath: identities.appendingPathComponent(Self.passType).path))
        }
    }

    @Test("an expired certificate is refused with its expiry date and the way to renew")
    func expiredRefused() async throws {
        try await withScratch { folder in
            let identities = folder.appendingPathComponent("identities", isDirectory: true)
            let (csr, _) = try await Self.request(in: folder)
            _ = try await Self.sign(csr, identities: identities) // makes the development CA
            let now = Date()
            let expired = try DevCertificates.issue(forRequest: Data(contentsOf: csr), in: identities,
                                                    notBefore: now.addingTimeInterval(-400 * 86_400), notAfter: now.addingTimeInterval(-35 * 86_400))
            let cer = folder.appendingPathComponent("request/expired.cer")
            try expired.write(to: cer)
            let result = try await CLI.run(["certs", "import", cer.path, "--out", identities.path], in: folder.appendingPathComponent("request"))
            #expect(result.status == 1, "\(result)")
            #expect(result.err.contains("the certificate for \(Self.passType) expired on "), "\(result)")
            #expect(result.err.contains("Make a new request with 'passwright certs request'"), "\(result)")
        }
    }

    @Test("a CA certificate is not a Pass Type ID certificate and is refused as such")
    func wrongKindRefused() async throws {
        let dev = try await DevIdentities.shared.folder()
        let result = try await CLI.run(["certs", "import", dev.rootCA.path, "--out", dev.root.path])
        #expect(result.status == 1, "\(result)")
        #expect(result.err.contains("holds only CA certificates"), "\(result)")
    }
}
