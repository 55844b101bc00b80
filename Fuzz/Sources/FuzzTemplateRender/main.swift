// Fuzzes template rendering with hostile records, the way `passwright batch` meets them: the first
// byte picks a sample template and the record format (CSV or JSON Lines), the rest is the records
// file. Each record must compile into a pass or be refused with a `PassCompilerError`; never crash.
// A pass that compiles must verify against the development root that signed it.
import Foundation
import FuzzSupport
import PassCompiler
import Signing

struct Target {
    let compiler: PassCompiler
    let roots: [Certificate]
}

let targets: [Target] = {
    do {
        let identities = try Fixtures.scratchFolder("identities")
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.templates.path).sorted()
        var targets: [Target] = []
        for name in names where FileManager.default.fileExists(atPath: Fixtures.templates.appendingPathComponent("\(name)/pass.json").path) {
            let template = try Template.load(from: Fixtures.templates.appendingPathComponent(name, isDirectory: true))
            let files = try Fixtures.devIdentities(in: identities, passTypeIdentifiers: [template.passTypeIdentifier])[template.passTypeIdentifier]!
            let directory = IdentityDirectory(root: identities, passphrase: { _ in nil })
            let compiler = try PassCompiler(
                template: template, identity: directory.identity(forPassTypeIdentifier: template.passTypeIdentifier),
                intermediate: Certificate.loadAll(from: files.intermediate)[0])
            targets.append(Target(compiler: compiler, roots: try Certificate.loadAll(from: files.rootCertificate)))
        }
        return targets
    } catch {
        fatalError("fuzz fixtures: \(error)")
    }
}()

/// At most this many records are compiled per input, so that one input cannot take seconds.
let recordsPerInput = 4

/// Inputs are written into a pipe before reading; a pipe holds 64 KiB without a reader.
let maxRecordsBytes = 60_000

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = FuzzDriver.data(bytes, count)
    guard let selector = data.first else { return 0 }
    let target = targets[Int(selector >> 1) % targets.count]
    let format: RecordReader.Format = selector & 1 == 0 ? .csv : .jsonLines
    let pipe = Pipe()
    pipe.fileHandleForWriting.write(data.dropFirst().prefix(maxRecordsBytes))
    try? pipe.fileHandleForWriting.close()
    defer { try? pipe.fileHandleForReading.close() }
    guard var reader = try? RecordReader(handle: pipe.fileHandleForReading, format: format, file: "fuzz.\(format.rawValue)") else { return 0 }
    for _ in 0..<recordsPerInput {
        guard let record = reader.next() else { break }
        guard case .success(let value) = record.value,
              let compiled = try? target.compiler.compile(PassInput(record: value, recordName: record.name))
        else { continue }
        let report = PassVerifier.verify(archive: compiled.archive, trustedRoots: target.roots)
        precondition(report.isValid, "a compiled pass does not verify: \(report.checks.filter { $0.outcome == .failed })")
    }
    return 0
}

FuzzDriver.run(testOneInput)
