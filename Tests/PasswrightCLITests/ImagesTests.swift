import Foundation
import PasswrightTesting
import Testing

/// The masters `passwright images` is tried with: made at test time, never committed.
enum ImageMaster: String, CaseIterable, Sendable {
    case jpeg, svg

    /// Writes the master into `folder`: a 1000 × 1000 JPEG (converted by the `vips` command line) or an SVG.
    func write(into folder: URL) throws -> URL {
        switch self {
        case .jpeg:
            let png = folder.appendingPathComponent("master.png"), jpeg = folder.appendingPathComponent("master.jpg")
            try TestPNG.solid(width: 1000, height: 1000).write(to: png)
            let result = try Subprocess.toolBlocking("vips", ["copy", png.path, jpeg.path])
            guard result.succeeded else { throw FixtureError("vips copy failed: \(result)") }
            return jpeg
        case .svg:
            let svg = folder.appendingPathComponent("master.svg")
            try Data(##"<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect x="8" y="8" width="48" height="48" fill="#2a5aa0"/></svg>"##.utf8).write(to: svg)
            return svg
        }
    }
}

/// `passwright images` on copies of the sample templates, judged by `passwright lint`.
@Suite("images")
struct ImagesTests {
    /// Each sample template with every root image removed and remade from one master.
    static let cases: [(template: String, master: ImageMaster)] = Samples.templateNames.flatMap { name in ImageMaster.allCases.map { (name, $0) } }

    @Test("images remakes every image of every sample template (each style) from a JPEG or an SVG, and lint is clean", arguments: cases)
    func remakesSamples(template name: String, master kind: ImageMaster) async throws {
        try await withScratch { folder in
            let template = try Samples.copy(name, into: folder) { _ in }
            let slots = Set(template.fileNames().filter { $0.hasSuffix(".png") }.map { String($0.prefix { $0 != "@" && $0 != "." }) })
            for file in template.fileNames() where file.hasSuffix(".png") {
                try FileManager.default.removeItem(at: template.appendingPathComponent(file))
            }
            let missing = try await CLI.run(["images", "--check", template.path])
            #expect(missing.status == 1, "\(missing)")
            #expect(missing.out.contains("passwright images MASTER --slot icon --out \(template.path)"), "\(missing)")

            let master = try kind.write(into: folder)
            for slot in slots.sorted() {
                let result = try await CLI.run(["images", master.path, "--slot", slot, "--out", template.path])
                #expect(result.status == 0, "\(slot): \(result)")
                // Only covering a strip or a background wider or taller than 1000 px upscales, and says so.
                #expect(result.err.isEmpty || (kind == .jpeg && result.err.hasPrefix("Warning: ") && result.err.contains("upscaled")), "\(slot): \(result)")
            }
            let check = try await CLI.run(["images", "--check", template.path])
            #expect(check.status == 0, "\(check)")
            let lint = try await CLI.run(["lint", template.path])
            #expect(lint.status == 0 && lint.out.contains("no findings"), "\(name) from \(kind): \(lint)")
        }
    }

    @Test("a wrong size in lint's After column names the images command that fixes it")
    func lintSuggestsCommand() async throws {
        try await withScratch { folder in
            let template = try Samples.copy("coupon", into: folder) { _ in }
            for scale in 1...3 {
                try TestPNG.make(width: 300 * scale, height: 100 * scale).write(to: template.appendingPathComponent(scale == 1 ? "strip.png" : "strip@\(scale)x.png"))
            }
            let lint = try await CLI.run(["lint", template.path])
            #expect(lint.out.contains("image.size"), "\(lint)")
            #expect(lint.out.contains("750×288 px: passwright images MASTER --slot strip --style coupon --out TEMPLATE"), "\(lint)")
            // Scales that disagree are a warning (Wallet scales them); the finding names the command too.
            try TestPNG.make(width: 10, height: 10).write(to: template.appendingPathComponent("strip@3x.png"))
            let check = try await CLI.run(["images", "--check", template.path])
            #expect(check.status == 1, "\(check)")
            #expect(check.out.contains("image.scaleMismatch"), "\(check)")
            #expect(check.out.contains("passwright images MASTER --slot strip --style coupon --out \(template.path)"), "\(check)")
        }
    }

    @Test("a master smaller than @3x is made anyway, with a warning naming the size it should have")
    func smallMasterWarns() async throws {
        try await withScratch { folder in
            let master = folder.appendingPathComponent("small.png")
            try TestPNG.solid(width: 100, height: 100).write(to: master)
            let result = try await CLI.run(["images", master.path, "--slot", "thumbnail", "--style", "generic", "--out", folder.path])
            #expect(result.status == 0, "\(result)")
            #expect(result.err.contains("Warning: \(master.path) is 100×100 px, smaller than thumbnail@3x.png (at most 270×270 px) needs"), "\(result)")
            #expect(result.err.contains("use a master of at least 270×270 px"), "\(result)")
        }
    }

    @Test("usage errors exit 64: no --slot, an unknown slot, a bad --fit; a slot the style never shows exits 1")
    func usage() async throws {
        try await withScratch { folder in
            let master = try ImageMaster.svg.write(into: folder)
            for arguments in [["images", master.path, "--out", folder.path], ["images", master.path, "--slot", "banner", "--out", folder.path],
                              ["images", master.path, "--slot", "logo", "--fit", "stretch", "--out", folder.path]] {
                let result = try await CLI.run(arguments)
                #expect(result.status == 64, "\(arguments): \(result)")
            }
            let wrong = try await CLI.run(["images", master.path, "--slot", "strip", "--style", "generic", "--out", folder.path])
            #expect(wrong.status == 1, "\(wrong)")
            #expect(wrong.err.contains("a generic pass never draws a strip image"), "\(wrong)")
        }
    }
}
