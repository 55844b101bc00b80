import Foundation
import PassCompiler
import PassModel
import PasswrightTesting
import Signing
import Testing

/// The compiler refuses to sign what Wallet would reject, naming the JSON path and rule, while the
/// same template without the mistake compiles.
@Suite struct ValidationRefusalTests {
    /// What the refusal must say.
    enum Refusal: Sendable {
        /// `invalidPass` with an error of this rule at this path.
        case rule(String, path: String)
        /// `undecodablePass` at this path (wrong JSON type, missing key, bad syntax).
        case decoding(path: String)
    }

    struct Mutation: Sendable, CustomTestStringConvertible {
        let name: String
        let refusal: Refusal
        var record: JSONValue = TestTemplate.baseRecord
        let change: @Sendable (inout JSONObject) -> Void

        var testDescription: String { name }
    }

    static let publicKey = "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEtYz8mZ3mtzSWo9U7zZBcxJSah5HradSQ/Rr/41RuZQBjGjiq1R847DCtmwCG3YZw2hdWfd82K0oQrXOgP13Syw=="
    static let location: JSONValue = .object(["latitude": .number(52.5), "longitude": .number(13.4)])

    static let mutations: [Mutation] = [
        Mutation(name: "missing organizationName", refusal: .decoding(path: "organizationName")) { $0["organizationName"] = nil },
        Mutation(name: "formatVersion as a string", refusal: .decoding(path: "formatVersion")) { $0["formatVersion"] = .string("1") },
        Mutation(name: "numeric serialNumber from a whole placeholder", refusal: .decoding(path: "serialNumber"),
                 record: .object(["balance": .number(12), "code": .number(4711), "member": TestTemplate.baseRecord["member"]!])) {
            $0["serialNumber"] = .string("{{code}}")
        },
        Mutation(name: "two style keys", refusal: .rule("style.exactlyOne", path: "")) {
            $0["generic"] = .object(["primaryFields": .array([.object(["key": .string("g"), "value": .string("x")])])])
        },
        Mutation(name: "duplicate field keys across groups", refusal: .rule("fields.uniqueKeys", path: "storeCard.secondaryFields[0].key")) {
            $0["storeCard"]?["secondaryFields"]?[0]?["key"] = .string("balance")
        },
        Mutation(name: "date with a +0000 offset", refusal: .decoding(path: "expirationDate")) {
            $0["expirationDate"] = .string("2030-01-01T10:00:00+0000")
        },
        Mutation(name: "bad colour", refusal: .decoding(path: "backgroundColor")) { $0["backgroundColor"] = .string("rgb(300, 0, 0)") },
        Mutation(name: "transitType on a storeCard", refusal: .rule("transitType", path: "storeCard.transitType")) {
            $0["storeCard"]?["transitType"] = .string("PKTransitTypeAir")
        },
        Mutation(name: "boardingPass without transitType", refusal: .rule("transitType", path: "boardingPass.transitType")) {
            $0["boardingPass"] = $0["storeCard"]
            $0["storeCard"] = nil
        },
        Mutation(name: "short authenticationToken", refusal: .rule("authenticationToken.length", path: "authenticationToken")) {
            $0["webServiceURL"] = .string("https://passes.example.com/wallet")
            $0["authenticationToken"] = .string("too-short-token")
        },
        Mutation(name: "webServiceURL ending in /v1", refusal: .rule("webServiceURL.version", path: "webServiceURL")) {
            $0["webServiceURL"] = .string("https://passes.example.com/wallet/v1")
            $0["authenticationToken"] = .string("0123456789abcdef0123456789abcdef")
        },
        Mutation(name: "11 locations", refusal: .rule("locations.count", path: "locations")) {
            $0["locations"] = .array(Array(repeating: location, count: 11))
        },
        Mutation(name: "latitude 91", refusal: .rule("location.latitude", path: "locations[0].latitude")) {
            $0["locations"] = .array([.object(["latitude": .number(91), "longitude": .number(13.4)])])
        },
        Mutation(name: "NFC message over 64 bytes", refusal: .rule("nfc.messageLength", path: "nfc.message")) {
            $0["nfc"] = .object(["message": .string(String(repeating: "N", count: 65)), "encryptionPublicKey": .string(publicKey)])
        },
        Mutation(name: "associatedStoreIdentifiers as strings", refusal: .decoding(path: "associatedStoreIdentifiers[0]")) {
            $0["associatedStoreIdentifiers"] = .array([.string("123456789")])
        },
        Mutation(name: "barcodes as an object", refusal: .decoding(path: "barcodes")) { $0["barcodes"] = $0["barcodes"]?[0] },
    ]

    /// Mistakes Wallet accepts, showing the pass plainer or ignoring the key: lint reports them as
    /// errors, but they do not stop a build (only what Wallet refuses does).
    static let fallbacks: [Mutation] = [
        Mutation(name: "changeMessage without %@", refusal: .rule("field.changeMessage", path: "storeCard.primaryFields[0].changeMessage")) {
            $0["storeCard"]?["primaryFields"]?[0]?["changeMessage"] = .string("Your balance changed")
        },
        Mutation(name: "textAlignment on a primary field", refusal: .rule("field.textAlignment", path: "storeCard.primaryFields[0].textAlignment")) {
            $0["storeCard"]?["primaryFields"]?[0]?["textAlignment"] = .string("PKTextAlignmentLeft")
        },
        Mutation(name: "poster event ticket without background or artwork", refusal: .rule("poster.backgroundImage", path: "preferredStyleSchemes")) {
            $0["eventTicket"] = $0["storeCard"]
            $0["storeCard"] = nil
            $0["preferredStyleSchemes"] = .array([.string("posterEventTicket"), .string("eventTicket")])
            $0["semantics"] = .object(["eventName": .string("Open Air"), "venueName": .string("Park Stage")])
            $0["nfc"] = .object(["message": .string("TICKET-1"), "encryptionPublicKey": .string(publicKey), "requiresAuthentication": .bool(true)])
        },
    ]

    @Test(arguments: fallbacks)
    func compilerBuildsWithAWarning(mutation: Mutation) throws {
        try withTemporaryDirectory { folder in
            var pass = TestTemplate.basePass
            mutation.change(&pass)
            let template = try TestTemplate.load(pass, in: folder)
            let compiled = try TestTemplate.compiler(for: template).compile(PassInput(record: mutation.record, recordName: "record 7"))
            guard case .rule(let rule, let path) = mutation.refusal else { return }
            let warning = compiled.warnings.first { $0.rule == rule }
            #expect(warning?.severity == .warning, "\(compiled.warnings)")
            #expect(warning?.path == path)
        }
    }

    @Test(arguments: mutations)
    func compilerRefuses(mutation: Mutation) throws {
        try withTemporaryDirectory { folder in
            var pass = TestTemplate.basePass
            mutation.change(&pass)
            let template = try TestTemplate.load(pass, in: folder.appendingPathComponent("broken"))
            let compiler = try TestTemplate.compiler(for: template)
            let input = PassInput(record: mutation.record, recordName: "record 7")
            let error = try #require(throws: PassCompilerError.self) { try compiler.compile(input) }
            let description = "\(error)"
            #expect(description.hasPrefix("record 7: "))
            switch (mutation.refusal, error) {
            case (.rule(let rule, let path), .invalidPass(_, let issues)):
                let match = issues.first { $0.severity == .error && $0.rule == rule }
                #expect(match != nil, "no \(rule) error in \(issues)")
                if !path.isEmpty {
                    #expect(match?.path == path)
                    #expect(description.contains(path))
                }
                #expect(description.contains("[\(rule)]"))
            case (.decoding(let path), .invalidPass(_, let issues)):
                // A value that does not decode is an error issue, listed with every other problem.
                let match = issues.first { $0.rule == PassDecodingError.issueRule }
                #expect(match?.path == path, "\(issues)")
                #expect(description.contains(path))
            default:
                Issue.record("unexpected refusal for \(mutation.name): \(error)")
            }

            // The same template without the mistake builds, with the same record where it fits.
            let good = try TestTemplate.load(in: folder.appendingPathComponent("good"))
            _ = try TestTemplate.compiler(for: good).compile(PassInput(record: TestTemplate.baseRecord, recordName: "record 7"))
        }
    }

    /// `decode` reads a pass the rules refuse (a stored pass is rendered again only to be compared
    /// with its next state).
    @Test func decodeReadsAPassTheRulesRefuse() throws {
        try withTemporaryDirectory { folder in
            var pass = TestTemplate.basePass
            pass["locations"] = .array(Array(repeating: Self.location, count: 11))
            let compiler = try TestTemplate.compiler(for: try TestTemplate.load(pass, in: folder))
            let input = PassInput(record: TestTemplate.baseRecord, recordName: "record 7")
            #expect(throws: PassCompilerError.self) { try compiler.validate(input) }
            let read = try compiler.decode(input)
            #expect(read.locations.count == 11)
            #expect(read.allFields.count > 1)
        }
    }

    @Test func identityForAnotherPassTypeIsRefused() throws {
        try withTemporaryDirectory { folder in
            let template = try TestTemplate.load(in: folder)
            let identities = try ThrowawayPKI.shared()
            let error = try #require(throws: PassCompilerError.self) {
                try PassCompiler(template: template, identity: identities.identity(for: ThrowawayPKI.otherPassType), intermediate: identities.intermediate)
            }
            guard case .identityMismatch(let message) = error else {
                Issue.record("expected identityMismatch, got \(error)")
                return
            }
            #expect(message.contains(ThrowawayPKI.testPassType) && message.contains(ThrowawayPKI.otherPassType))
        }
    }

    @Test func expiredCertificateIsRefused() throws {
        try withTemporaryDirectory { folder in
            let twoYearsAgo = Date().addingTimeInterval(-2 * 365 * 24 * 3600)
            let files = try DevCertificates.create(in: folder.appendingPathComponent("expired"), passTypeIdentifier: ThrowawayPKI.testPassType,
                                                   teamIdentifier: ThrowawayPKI.team, now: twoYearsAgo)
            let identity = try SigningIdentity(certificatePEM: Data(contentsOf: files.certificate),
                                               privateKeyPEM: Data(contentsOf: files.privateKey), passphrase: nil)
            let intermediate = try Certificate.loadAll(from: files.intermediate)[0]
            let template = try TestTemplate.load(in: folder)
            let error = try #require(throws: PassCompilerError.self) {
                try PassCompiler(template: template, identity: identity, intermediate: intermediate)
            }
            guard case .identityMismatch(let message) = error else {
                Issue.record("expected identityMismatch, got \(error)")
                return
            }
            #expect(message.contains("not valid now"))
            // The same certificate was fine while it was valid.
            _ = try PassCompiler(template: template, identity: identity, intermediate: intermediate, now: twoYearsAgo.addingTimeInterval(3600))
        }
    }
}
