import Drawing
import Foundation
import PassCompiler
import PassLint
import PassModel
import PassPreview
import PasswrightTesting
import Testing

/// `passwright lint --pictures DIR` on copies of the sample templates: a before and an after picture
/// per finding that changes the look, linked from the table and the JSON.
@Suite("lint --pictures")
struct LintPicturesTests {
    /// The membership card with its labels in a grey barely lighter than the card.
    static func lowContrastLabels(in folder: URL) throws -> URL {
        try Samples.copy("membership", into: folder) { $0["labelColor"] = "rgb(70, 74, 80)" }
    }

    /// The concert ticket with five secondary fields (the style shows four, the rule asks for three).
    static func crowded(in folder: URL) throws -> URL {
        try Samples.copy("concert", into: folder) { pass in
            var ticket = pass["eventTicket"] as! [String: Any]
            var secondary = ticket["secondaryFields"] as! [[String: Any]]
            for (key, value) in [("gate", "North"), ("entrance", "C"), ("bar", "Level 2")] {
                secondary.append(["key": key, "label": key.capitalized, "value": value])
            }
            ticket["secondaryFields"] = secondary
            pass["eventTicket"] = ticket
        }
    }

    /// The pass the CLI draws for `template` with `record`, as PassPreview lays it out.
    static func contents(_ template: URL, record: URL) throws -> PassContents {
        let loaded = try Template.load(from: template, requiringIcon: false)
        return try PassContents(template: loaded, record: try JSONValue.parse(Data(contentsOf: record)), recordName: record.path)
    }

    /// `lint --format json` decoded.
    static func findings(_ arguments: [String]) async throws -> [Finding] {
        let result = try await CLI.run(["lint", "--format", "json"] + arguments)
        #expect(result.status == 0, "\(result)")
        return try JSONDecoder().decode([Finding].self, from: Data(result.out.utf8))
    }

    static func bitmap(_ file: URL) throws -> Bitmap {
        try Bitmap(png: Data(contentsOf: file), source: file.lastPathComponent)
    }

    @Test("a low-contrast label colour: before and after pictures, valid PNGs of one size, that differ at the label, linked from the table")
    func contrast() async throws {
        try await withScratch { folder in
            let template = try Self.lowContrastLabels(in: folder)
            let record = Samples.sample("membership.json")
            let pictures = folder.appendingPathComponent("pictures/nested")
            let table = try await CLI.run(["lint", template.path, "--record", record.path, "--pictures", pictures.path])
            #expect(table.status == 0, "\(table)")
            let beforeFile = pictures.appendingPathComponent("contrast.label-1-before.png")
            let afterFile = pictures.appendingPathComponent("contrast.label-1-after.png")
            #expect(table.out.contains("![before](\(beforeFile.path))"), "\(table.out)")
            #expect(table.out.contains("![after](\(afterFile.path))"), "\(table.out)")
            let row = try #require(table.out.split(separator: "\n").first { $0.contains("contrast.label") })
            #expect(row.contains("contrast.label-1-before.png") && row.contains("contrast.label-1-after.png"))

            let beforeData = try Data(contentsOf: beforeFile), afterData = try Data(contentsOf: afterFile)
            #expect(beforeData.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
            #expect(afterData.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
            #expect(beforeData != afterData)
            let before = try Self.bitmap(beforeFile), after = try Self.bitmap(afterFile)
            #expect(before.pixelWidth == after.pixelWidth && before.pixelHeight == after.pixelHeight)
            // The pictures are front and back at @2x: the primary field's label box, in pixels.
            let preview = try PassPreviewer.render(try Self.contents(template, record: record), options: PreviewOptions(side: .both, scale: 2))
            #expect(preview.pixelWidth == before.pixelWidth && preview.pixelHeight == before.pixelHeight)
            let label = try #require(preview.texts.first { $0.role == "primary.member.label" }).rect
            var differing = 0, sampled = 0
            for y in Int(label.y * 2)..<Int(label.maxY * 2) {
                for x in Int(label.x * 2)..<Int(label.maxX * 2) {
                    sampled += 1
                    if before.pixel(x: x, y: y) != after.pixel(x: x, y: y) { differing += 1 }
                }
            }
            #expect(sampled > 100 && differing > 20, "\(differing) of \(sampled) pixels differ in the label box")
            // Values keep their colour: the primary value's box is the same in both.
            let value = try #require(preview.texts.first { $0.role == "primary.member.value" }).rect
            #expect(before.pixel(x: Int(value.midX * 2), y: Int(value.midY * 2)) == after.pixel(x: Int(value.midX * 2), y: Int(value.midY * 2)))

            let json = try await Self.findings([template.path, "--record", record.path, "--pictures", pictures.path])
            let finding = try #require(json.first { $0.rule == "contrast.label" })
            #expect(finding.pictures == Finding.Pictures(before: beforeFile.path, after: afterFile.path))
            guard case .colour(key: "labelColor", let value)? = finding.fix else { Issue.record("\(String(describing: finding.fix))"); return }
            #expect(finding.after.contains(value))
        }
    }

    @Test("too many secondary fields: the after picture draws fewer field texts on the front, the rest on the back")
    func tooManyFields() async throws {
        try await withScratch { folder in
            let template = try Self.crowded(in: folder)
            let record = Samples.sample("concert.json")
            let pictures = folder.appendingPathComponent("pictures")
            let findings = try await Self.findings([template.path, "--record", record.path, "--pictures", pictures.path])
            let finding = try #require(findings.first { $0.rule == "glance.secondaryCount" })
            #expect(finding.pictures?.before == pictures.appendingPathComponent("glance.secondaryCount-1-before.png").path)
            let fix = try #require(finding.fix)
            #expect(fix == .moveToBack(style: "eventTicket", group: "secondaryFields", keep: 3))
            let beforeData = try Data(contentsOf: pictures.appendingPathComponent("glance.secondaryCount-1-before.png"))
            let afterData = try Data(contentsOf: pictures.appendingPathComponent("glance.secondaryCount-1-after.png"))
            #expect(beforeData != afterData)

            let contents = try Self.contents(template, record: record)
            let options = PreviewOptions(side: .both, scale: 1)
            let before = try PassPreviewer.render(contents, options: options)
            let after = try PassPreviewer.render(PassContents(pass: fix.apply(to: contents.pass), files: contents.files), options: options)
            func frontFieldTexts(_ preview: RenderedPreview) -> Int {
                preview.texts.filter { $0.side == .front && ($0.role.hasSuffix(".value") || $0.role.hasSuffix(".label")) }.count
            }
            #expect(frontFieldTexts(after) < frontFieldTexts(before), "before \(frontFieldTexts(before)), after \(frontFieldTexts(after))")
            #expect(after.texts.filter { $0.role.hasPrefix("secondary.") && $0.role.hasSuffix(".value") }.count == 3)
            #expect(after.texts.contains { $0.side == .back && $0.role.contains("entrance") })
        }
    }

    @Test("values the front cuts off are findings with a record: words are shortened, a one-word code moves to the back")
    func cutOff() async throws {
        try await withScratch { folder in
            let note = "Top rope, lead and the sauna on weekdays", locker = "LOCKER-0042-NORTH-WING"
            let template = try Samples.copy("membership", into: folder) { pass in
                var generic = pass["generic"] as! [String: Any]
                // The card's one row of four: member since, valid until, these two.
                generic["auxiliaryFields"] = [["key": "access", "label": "Includes", "value": note], ["key": "locker", "label": "Locker", "value": locker]]
                generic["backFields"] = []
                pass["generic"] = generic
            }
            let record = Samples.sample("membership.json")
            // Without a record the values are placeholders' names: no cut-off finding.
            let plain = try await Self.findings([template.path])
            #expect(!plain.contains { $0.rule == "glance.valueCutOff" })

            let pictures = folder.appendingPathComponent("pictures")
            let findings = try await Self.findings([template.path, "--record", record.path, "--pictures", pictures.path])
            let access = try #require(findings.first { $0.rule == "glance.valueCutOff" && $0.location.contains("auxiliaryFields[0]") }, "\(findings)")
            #expect(access.location == "record 1: pass.json generic.auxiliaryFields[0].value")
            guard case .shorten(key: "access", let short)? = access.fix else { Issue.record("\(String(describing: access.fix))"); return }
            #expect(!short.isEmpty && note.hasPrefix(short) && short.count < note.count && !short.hasSuffix(" "))
            #expect(access.after.contains(short))
            let code = try #require(findings.first { $0.rule == "glance.valueCutOff" && $0.location.contains("auxiliaryFields[1]") }, "\(findings)")
            #expect(code.fix == .moveFieldToBack(key: "locker"))
            for finding in [access, code] {
                #expect(FileManager.default.fileExists(atPath: try #require(finding.pictures?.before)))
                #expect(FileManager.default.fileExists(atPath: try #require(finding.pictures?.after)))
            }
            #expect(access.pictures?.after == pictures.appendingPathComponent("glance.valueCutOff-1-after.png").path)
            #expect(code.pictures?.after == pictures.appendingPathComponent("glance.valueCutOff-2-after.png").path)

            let contents = try Self.contents(template, record: record)
            let options = PreviewOptions(side: .both, scale: 1)
            let cut = try PassPreviewer.render(contents, options: options)
            #expect(cut.texts.first { $0.role == "secondary.access.value" }?.isEllipsized == true)
            #expect(cut.texts.first { $0.role == "secondary.locker.value" }?.isEllipsized == true)
            let shortened = try PassPreviewer.render(PassContents(pass: access.fix!.apply(to: contents.pass), files: contents.files), options: options)
            #expect(shortened.texts.first { $0.role == "secondary.access.value" }?.isEllipsized == false)
            #expect(shortened.texts.contains { $0.side == .back && $0.text == note })
            let moved = try PassPreviewer.render(PassContents(pass: code.fix!.apply(to: contents.pass), files: contents.files), options: options)
            #expect(!moved.texts.contains { $0.side == .front && $0.text == locker })
            #expect(moved.texts.contains { $0.side == .back && $0.text == locker })
        }
    }

    @Test("no finding that changes the look: no pictures, no folder")
    func nothingToDraw() async throws {
        try await withScratch { folder in
            let pictures = folder.appendingPathComponent("pictures")
            let result = try await CLI.run(["lint", Samples.template("membership").path, "--record", Samples.sample("membership.json").path, "--pictures", pictures.path])
            #expect(result.status == 0, "\(result)")
            #expect(!result.out.contains(".png"), "\(result.out)")
            #expect(pictures.fileNames().isEmpty)
            #expect(!FileManager.default.fileExists(atPath: pictures.path))
        }
    }
}
