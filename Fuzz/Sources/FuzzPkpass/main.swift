// Fuzzes what `passwright verify` does with a `.pkpass` from anywhere: zip bombs, traversal names,
// truncated and huge entries, broken manifests and signatures. Any bytes must give a report, never a
// crash. The only trusted root is one made at start-up that signed nothing, so no input may verify:
// one that did would be a forged signature chain.
import Foundation
import FuzzSupport
import PassCompiler
import Signing

let trustedRoots: [Certificate] = {
    do {
        let folder = try Fixtures.scratchFolder("root")
        let files = try Fixtures.devIdentities(in: folder, passTypeIdentifiers: ["pass.dev.passwright.fuzz"])
        return try Certificate.loadAll(from: files["pass.dev.passwright.fuzz"]!.rootCertificate)
    } catch {
        fatalError("fuzz fixtures: \(error)")
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let report = PassVerifier.verify(archive: FuzzDriver.data(bytes, count), trustedRoots: trustedRoots)
    precondition(!report.isValid, "an archive verified against a root that signed nothing: \(report.checks)")
    return 0
}

FuzzDriver.run(testOneInput)
