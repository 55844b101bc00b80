import Foundation
import PassModel
import Signing
import WalletPackage

/// Turns a template plus one record into a signed `.pkpass`: render → typed, validated `Pass` →
/// `pass.json` bytes → `WalletDocumentSigner` (SHA-1 manifest → detached CMS signature → zip).
///
/// Everything that does not vary per pass (template files and hashes, the signer's key and
/// certificates) is prepared in `init`, so `compile` does only the per-pass work and is safe to call
/// from many tasks at once.
public struct PassCompiler: Sendable {
    /// The template passes are built from.
    public let template: Template
    /// Settings for every pass.
    public let options: CompileOptions
    private let signer: WalletDocumentSigner

    /// Prepares a compiler, refusing an identity whose certificate does not belong to the template's
    /// pass type and team (Wallet would reject every pass, Apple's "Building a Pass") or has expired.
    public init(template: Template, identity: SigningIdentity, intermediate: Certificate, options: CompileOptions = CompileOptions(), now: Date = Date()) throws(PassCompilerError) {
        try Self.check(identity.certificate, passTypeIdentifier: template.passTypeIdentifier, teamIdentifier: template.teamIdentifier, now: now)
        do {
            signer = try WalletDocumentSigner(kind: .pass, identity: identity, intermediate: intermediate)
        } catch {
            throw .packaging(message: "cannot prepare the signer: \(error)")
        }
        self.template = template
        self.options = options
        self.certificate = identity.certificate
        func hashes(_ files: [PackagedFile]) -> [(path: String, hexDigest: String)] { files.map { ($0.path, $0.sha1Hex) } }
        files = (DocumentFiles(kind: .pass, hashes: hashes(template.files), compressed: template.packaged.all),
                 DocumentFiles(kind: .pass, hashes: hashes(template.files.filter { !$0.isPersonalization }),
                               compressed: template.packaged.withoutPersonalization))
        let all = Self.sharedPrefix(signer, files.all)
        sharedPrefixes = (all, template.files.contains(where: \.isPersonalization) ? Self.sharedPrefix(signer, files.withoutPersonalization) : all)
    }

    /// The bytes every archive of `files` begins with: what two archives of different made-up parts
    /// have in common (the template's entries, which ``WalletDocumentSigner/assemble(_:files:)``
    /// writes first). Empty if they cannot be assembled; ``packaged(_:recordName:)`` checks each
    /// archive against it, so a prefix too long would only cost memory, never a wrong archive.
    private static func sharedPrefix(_ signer: WalletDocumentSigner, _ files: DocumentFiles) -> Data {
        func archive(_ fill: UInt8, _ count: Int) -> Data? {
            let bytes = Data(repeating: fill, count: count)
            return try? signer.assemble(SignedParts(payload: bytes, manifest: bytes, signature: bytes), files: files)
        }
        guard let first = archive(0x61, 1), let second = archive(0x62, 2) else { return Data() }
        let common = first.withUnsafeBytes { a in
            second.withUnsafeBytes { b in zip(a, b).prefix { $0 == $1 }.count }
        }
        return Data(first.prefix(common))
    }

    private let certificate: Certificate
    /// The template's files with and without the personalization files, which only NFC passes carry.
    private let files: (all: DocumentFiles, withoutPersonalization: DocumentFiles)
    /// What every archive of each of those begins with (``PackagedPass/shared``).
    private let sharedPrefixes: (all: Data, withoutPersonalization: Data)

    /// Renders and validates a pass without signing it: what an API checks before it stores data.
    /// Throws the same errors as ``compile(_:at:)``; returns the pass and its warnings.
    public func validate(_ input: PassInput, at now: Date = Date()) throws(PassCompilerError) -> (pass: Pass, warnings: [ValidationIssue]) {
        let rendered = try render(input)
        let pass: Pass
        var issues: [ValidationIssue]
        do {
            (pass, issues) = try Pass.decodeAll(rendered)
        } catch {
            throw .undecodablePass(record: input.recordName, error: error)
        }
        // Values that did not decode are reported once, by decoding; the rules still judge the rest.
        let undecoded = issues.filter { $0.rule == PassDecodingError.issueRule }.map(\.path)
        issues += pass.validate().filter { !PassDecodingError.follows($0.path, fromAnyOf: undecoded) }
        issues += checkImages(for: pass)
        issues = issues.map(BuildPolicy.forBuild)
        if issues.contains(where: { $0.severity == .error }) {
            throw .invalidPass(record: input.recordName, issues: issues)
        }
        if pass.passTypeIdentifier != template.passTypeIdentifier || pass.teamIdentifier != template.teamIdentifier {
            try Self.check(certificate, passTypeIdentifier: pass.passTypeIdentifier, teamIdentifier: pass.teamIdentifier, now: now)
        }
        return (pass, issues)
    }

    /// The pass `input` renders to, read but not judged: for a pass already stored, which was judged
    /// when it was written, and is rendered again only to be compared with its next state (the
    /// notification etiquette does, for every pass of a roll-out). A value that does not decode is
    /// left at its default rather than thrown.
    public func decode(_ input: PassInput) throws(PassCompilerError) -> Pass {
        let rendered = try render(input)
        do {
            return try Pass.decodeAll(rendered).0
        } catch {
            throw .undecodablePass(record: input.recordName, error: error)
        }
    }

    /// Builds one signed pass.
    public func compile(_ input: PassInput, at now: Date = Date()) throws(PassCompilerError) -> CompiledPass {
        try compile(try prepare(input, at: now), at: now)
    }

    /// Everything ``compile(_:at:)`` does before the signature: rendered, validated, `pass.json` encoded.
    public func prepare(_ input: PassInput, at now: Date = Date()) throws(PassCompilerError) -> PreparedPass {
        let (pass, issues) = try validate(input, at: now)
        return PreparedPass(pass: pass, warnings: issues, payload: pass.encoded(), recordName: input.recordName)
    }

    /// Signs and packages a pass ``prepare(_:at:)`` made: the signature and the archive, nothing judged again.
    public func compile(_ prepared: PreparedPass, at now: Date = Date()) throws(PassCompilerError) -> CompiledPass {
        try compiled(prepared, signed: try sign(prepared, at: now))
    }

    /// Signs a pass ``prepare(_:at:)`` made, without packaging it: a batch job's own stage, the
    /// archive being made beside it (``compiled(_:signed:)``).
    public func sign(_ prepared: PreparedPass, at now: Date = Date()) throws(PassCompilerError) -> SignedPass {
        try sign(payload: prepared.payload, personalized: prepared.pass.nfc != nil, recordName: prepared.recordName, at: now)
    }

    /// The archive of a prepared pass signed by `sign(_:at:)`, with its facts.
    public func compiled(_ prepared: PreparedPass, signed: SignedPass) throws(PassCompilerError) -> CompiledPass {
        CompiledPass(pass: prepared.pass, passJSON: signed.parts.payload, archive: try package(signed, recordName: prepared.recordName), warnings: prepared.warnings)
    }

    /// Builds and signs one pass without packaging it: the few KB a server keeps per pass, where the
    /// archive carries every template file again (``package(_:recordName:)`` makes it).
    public func sign(_ input: PassInput, at now: Date = Date()) throws(PassCompilerError) -> SignedPass {
        try sign(try validate(input, at: now).pass, recordName: input.recordName, at: now)
    }

    /// The `.pkpass` of a pass signed by this compiler: the template's files copied in, no signature made.
    public func package(_ signed: SignedPass, recordName: String) throws(PassCompilerError) -> Data {
        do {
            return try signer.assemble(signed.parts, files: signed.personalized ? files.all : files.withoutPersonalization)
        } catch {
            throw .packaging(message: "\(recordName): cannot write the archive: \(error)")
        }
    }

    /// ``package(_:recordName:)`` split into the template's shared bytes and the pass's own: what a
    /// server keeps of each signed pass.
    public func packaged(_ signed: SignedPass, recordName: String) throws(PassCompilerError) -> PackagedPass {
        let archive = try package(signed, recordName: recordName)
        let shared = signed.personalized ? sharedPrefixes.all : sharedPrefixes.withoutPersonalization
        // A copy of the rest, not a slice, which would keep the whole archive alive in a cache.
        let own = archive.withUnsafeBytes { bytes -> Data? in
            shared.withUnsafeBytes { prefix in
                guard bytes.count >= prefix.count, prefix.isEmpty || memcmp(bytes.baseAddress!, prefix.baseAddress!, prefix.count) == 0 else { return nil }
                return Data(bytes[prefix.count...])
            }
        }
        guard let own else { return PackagedPass(shared: Data(), own: archive) }
        return PackagedPass(shared: shared, own: own)
    }

    private func sign(_ pass: Pass, recordName: String, at now: Date) throws(PassCompilerError) -> SignedPass {
        try sign(payload: pass.encoded(), personalized: pass.nfc != nil, recordName: recordName, at: now)
    }

    private func sign(payload: Data, personalized: Bool, recordName: String, at now: Date) throws(PassCompilerError) -> SignedPass {
        do {
            let parts = try signer.signParts(payload: payload, files: personalized ? files.all : files.withoutPersonalization, at: now)
            return SignedPass(parts: parts, personalized: personalized)
        } catch {
            throw .packaging(message: "\(recordName): cannot sign the manifest: \(error)")
        }
    }

    /// A detached CMS signature over `data` with this template's identity — the personalization
    /// token answer of the Wallet web service (Apple's Wallet Web Service Reference, personalization) uses the same recipe as the manifest.
    public func signDetached(_ data: Data, at now: Date = Date()) throws(PassCompilerError) -> Data {
        do {
            return try signer.sign(data, at: now)
        } catch {
            throw .packaging(message: "cannot sign: \(error)")
        }
    }

    /// The rendered `pass.json` tree with the serial number, token and web service filled in.
    func render(_ input: PassInput) throws(PassCompilerError) -> JSONValue {
        try template.render(input, options: options)
    }

    /// Checks that need both the pass and the template's files.
    private func checkImages(for pass: Pass) -> [ValidationIssue] {
        guard pass.preferredStyleSchemes.contains(.posterEventTicket),
              !template.hasImage("background"), !template.hasImage("artwork") else { return [] }
        return [ValidationIssue(
            severity: .error, path: "preferredStyleSchemes", rule: "poster.backgroundImage",
            message: "a poster event ticket needs a background (345×505 pt) or artwork (358×448 pt) image, or Wallet falls back to the classic layout")]
    }

    private static func check(_ certificate: Certificate, passTypeIdentifier: String, teamIdentifier: String, now: Date) throws(PassCompilerError) {
        if certificate.passTypeIdentifier != passTypeIdentifier {
            throw .identityMismatch(message: "pass.json passTypeIdentifier is \(passTypeIdentifier) but the signing certificate is for \(certificate.passTypeIdentifier ?? "no pass type (subject \(certificate.subject))"); Wallet rejects such passes")
        }
        if certificate.teamIdentifier != teamIdentifier {
            throw .identityMismatch(message: "pass.json teamIdentifier is \(teamIdentifier) but the signing certificate's team (OU) is \(certificate.teamIdentifier ?? "missing"); Wallet rejects such passes")
        }
        if !certificate.isValid(at: now) {
            throw .identityMismatch(message: "the signing certificate for \(passTypeIdentifier) is not valid now (valid \(certificate.notBefore) to \(certificate.notAfter)); new passes signed with it cannot be added")
        }
    }
}
