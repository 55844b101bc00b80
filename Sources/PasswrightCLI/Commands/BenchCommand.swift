import Foundation
import PassCompiler
import Signing

/// `passwright bench sign`: the signing ceiling — detached CMS signatures per second on one core
/// with a given identity — so batch throughput can be reported as a fraction of it, measured in the
/// same run on the same key.
struct BenchCommand: Subcommand {
    static let spec = CommandSpec(
        name: "bench",
        abstract: "Measure the CMS signing ceiling (signatures per second on one core) for an identity.",
        discussion: "Signs a manifest-sized document repeatedly on one thread for --seconds and prints one JSON line.",
        options: [
            IdentityOptions.option,
            .value("pass-type-id", "ID", help: "Whose identity to sign with (default: pass.dev.passwright.loyalty)."),
            .value("seconds", "N", help: "How long to measure (default: 3)."),
        ])

    let identities: IdentityOptions
    let passTypeIdentifier: String
    let seconds: Int

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        identities = IdentityOptions(arguments: arguments, environment: environment)
        passTypeIdentifier = arguments.value("pass-type-id") ?? "pass.dev.passwright.loyalty"
        seconds = try arguments.integer("seconds", in: 1...600) ?? 3
    }

    func run(console: Console) async throws -> ExitStatus {
        let identity = try identities.directory.identity(forPassTypeIdentifier: passTypeIdentifier)
        let intermediate = try WWDRSelection.intermediate(for: identity.certificate, among: identities.directory.intermediates(), at: Date())
        let signer = try PassSigner(identity: identity, intermediate: intermediate)
        var manifest = Manifest()
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
        let elapsedSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let perSecond = Double(count) / elapsedSeconds
        console.out("{\"benchmark\":\"cms-sign\",\"signatures\":\(count),\"seconds\":\(String(format: "%.3f", elapsedSeconds)),\"perSecond\":\(Int(perSecond)),\"millisecondsEach\":\(String(format: "%.4f", 1000 / perSecond))}")
        return .success
    }
}
