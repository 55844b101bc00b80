import Foundation
import PasswrightTesting
import Testing

/// The README's sample pictures, made by `scripts/previews.sh`.
@Suite("README sample pictures")
struct SamplePicturesTests {
    @Test("every sample template has a picture in docs/pictures, shown in the README, a PNG under 300 KB")
    func everyTemplateHasAPicture() throws {
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(!Samples.templateNames.isEmpty)
        for name in Samples.templateNames {
            let path = "docs/pictures/\(name).png"
            let picture = try Data(contentsOf: Repository.root.appendingPathComponent(path))
            #expect(picture.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "\(path)")
            #expect(picture.count < 300 * 1024, "\(path) is \(picture.count) bytes")
            #expect(readme.contains("](\(path))"), "README does not show \(path)")
        }
        #expect(readme.contains("scripts/previews.sh"))
        #expect(FileManager.default.isExecutableFile(atPath: Repository.root.appendingPathComponent("scripts/previews.sh").path))
    }
}
