import Foundation
import ZipArchive

/// `.pkpasses`: several signed passes in one download (Safari adds them all at once).
public enum PassBundle {
    /// Apple's limit per bundle ("up to 10 passes").
    public static let maximumPasses = 10

    /// Zips `passes` (each a `.pkpass`) as `pass-1.pkpass`, `pass-2.pkpass`, …
    public static func make(_ passes: [Data]) throws(PassCompilerError) -> Data {
        guard (1...maximumPasses).contains(passes.count) else {
            throw .packaging(message: "a .pkpasses bundle holds 1 to \(maximumPasses) passes, not \(passes.count)")
        }
        do {
            var writer = ZipWriter()
            for (index, pass) in passes.enumerated() {
                try writer.add(path: "pass-\(index + 1).pkpass", data: pass, compression: .store)
            }
            return try writer.finish()
        } catch {
            throw .packaging(message: "cannot write the .pkpasses bundle: \(error)")
        }
    }
}
