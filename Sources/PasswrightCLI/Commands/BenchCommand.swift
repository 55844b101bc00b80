import Foundation
import PassCompiler
import PassModel
import PassPreview
import Signing
import WalletPackage

/// `passwright bench`: the signing ceiling — detached CMS signatures per second on one core with a
/// given identity — so batch throughput can be reported as a fraction of it, measured in the same run
/// on the same key; with `--preview`, uncached preview renders per second on one core instead.
struct BenchCommand: Subcommand {
    static let spec = CommandSpec(
        name: "bench",
        abstract: "Measure the CMS signing ceiling (signatures per second on one core), or preview renders per second.",
        discussion: """
        Signs a manifest-sized document repeatedly on one thread for --seconds and prints one JSON line. With
        --preview TEMPLATE, draws the template's front at @2x (PNG, with --record or its placeholders' names)
        repeatedly on one thread instead, each render from scratch (images decoded, text shaped, PNG encoded).
        """,
        options: [
            IdentityOptions.option,
            .value("pass-type-id", "ID", help: "Whose identity to sign with (default: pass.dev.passwright.loyalty)."),
            .value("seconds", "N", help: "How long to measure (default: 3)."),
            .value("preview", "TEMPLATE", help: "Measure preview renders of this template folder instead of signatures."),
            .value("record", "FILE", help: "With --preview: the JSON record to fill the template with."),
        ])

    let identities: IdentityOptions
    let passTypeIdentifier: String
    let seconds: Int
    let preview: String?
    let record: String?

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        identities = IdentityOptions(arguments: arguments, environment: environment)
        passTypeIdentifier = arguments.value("pass-type-id") ?? "pass.dev.passwright.loyalty"
        seconds = try arguments.integer("seconds", in: 1...600) ?? 3
        preview = arguments.value("preview")
        record = arguments.value("record")
        if record != nil, preview == nil { throw UsageError("--record goes with --preview TEMPLATE") }
    }

    func run(console: Console) async throws -> ExitStatus {
        if let preview { return try benchPreview(preview, console: console) }
        let identity = try identities.directory.identity(forPassTypeIdentifier: passTypeIdentifier)
        let intermediate = try WWDRSelection.intermediate(for: identity.certificate, among: identities.directory.intermediates(), at: Date())
        let signer = try PassSigner(identity: identity, intermediate: intermediate)
        var manifest = Manifest(hash: .sha1)
        for index in 0..<12 { manifest.set(Digest.sha1Hex(Data("file \(index)".utf8)), for: "file-\(index).png") }
        let content = manifest.encoded()
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(seconds)
        let start = clock.now
        var count = 0
        while clock.now < deadline {
            _ = try signer.sign(content, signingTime: Date())
            count += 1
        }
        let elapsed = clock.now - start
        let elapsedSeconds = elapsed / .seconds(1)
        let perSecond = Double(count) / elapsedSeconds
        console.out("{\"benchmark\":\"cms-sign\",\"signatures\":\(count),\"seconds\":\(String(format: "%.3f", elapsedSeconds)),\"perSecond\":\(Int(perSecond)),\"millisecondsEach\":\(String(format: "%.4f", 1000 / perSecond))}")
        return .success
    }

    private func benchPreview(_ folder: String, console: Console) throws -> ExitStatus {
        let template = try Template.load(from: URL(fileURLWithPath: folder))
        let recordValue = try record.map { try BuildCommand.readRecord($0, name: $0) } ?? template.sampleRecord
        let contents = try PassContents(template: template, record: recordValue, recordName: record ?? "the placeholders' names")
        let options = PreviewOptions(side: .front, scale: 2, format: .png)
        var bytes = try PassPreviewer.render(contents, options: options).data.count // warm: fonts found, shaping caches filled
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(seconds)
        let start = clock.now
        var count = 0
        while clock.now < deadline {
            bytes = try PassPreviewer.render(contents, options: options).data.count
            count += 1
        }
        let elapsed = clock.now - start
        let elapsedSeconds = elapsed / .seconds(1)
        let perSecond = Double(count) / elapsedSeconds
        console.out("{\"benchmark\":\"preview-render\",\"template\":\"\(template.name)\",\"renders\":\(count),\"bytes\":\(bytes),\"seconds\":\(String(format: "%.3f", elapsedSeconds)),\"perSecond\":\(String(format: "%.1f", perSecond)),\"millisecondsEach\":\(String(format: "%.3f", 1000 / perSecond))}")
        return .success
    }
}
