import Foundation
import PasswrightTesting
import Testing
@testable import PassLint
import PassModel

/// `Templates/README.md` documents the image sizes the linter checks; the table and `ImageSpec`
/// must not drift apart.
@Suite struct ImageTableTests {
    static let slots = ["icon", "logo", "strip", "thumbnail", "background", "footer", "primaryLogo", "secondaryLogo", "artwork", "personalizationLogo"]

    @Test(arguments: slots)
    func readmeTableGivesTheSlotsSizes(slot: String) throws {
        let readme = try String(contentsOf: Repository.templates.appendingPathComponent("README.md"), encoding: .utf8)
        let spec = try #require(ImageSpec.forSlot(slot, style: .eventTicket, poster: true))
        let row = try #require(readme.split(separator: "\n").first { $0.hasPrefix("| `\(slot)` |") }, "no row for \(slot)")
        for scale in 1...3 {
            #expect(row.contains("| \(spec.width * scale)×\(spec.height * scale) |"), "\(slot) at @\(scale)x: \(row)")
        }
        #expect(row.contains(spec.exact ? "exact" : "at most"))
    }
}
