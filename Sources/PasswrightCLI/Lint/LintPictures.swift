import Foundation
import PassCompiler
import PassLint
import PassPreview

/// `lint --pictures DIR`: for each finding that changes how the pass looks (one with a
/// ``Finding/Fix``), the pass as it is and the pass with that one fix applied, side by side with its
/// back, as `<rule>-<n>-before.png` and `<rule>-<n>-after.png`.
///
/// Why here and not in PassLint: PassLint is the pure rule library under `build`, `batch` and every
/// template upload to the server, and it stays free of Cairo, Pango, zint and fonts; drawing is a
/// way of presenting findings, like the table and the JSON, so it lives with the command that
/// prints them. PassLint owns what a fix *is* (``Finding/Fix/apply(to:)`` on the typed pass);
/// PassPreview, beside it, owns how a pass is drawn; this file only joins the two and writes files.
struct LintPictures {
    /// The pass the pictures show: the template filled with `--record` (or its placeholders' names),
    /// or the `.pkpass` as the holder has it.
    let contents: PassContents
    /// Findings whose location names this record (`record 1: pass.json …`) are about this pass too.
    let record: String?
    /// Both sides at @2x: moved fields show up on the back of the after picture.
    var options = PreviewOptions(side: .both, scale: 2)

    /// Whether `finding` is about the pass drawn: a template's or archive's own finding, or one of
    /// the drawn record's.
    func shows(_ finding: Finding) -> Bool {
        guard finding.fix != nil else { return false }
        if finding.location.hasPrefix("pass.json") { return true }
        guard let record else { return false }
        return finding.location.hasPrefix("\(record): pass.json")
    }

    /// Draws the pictures of every finding ``shows(_:)`` accepts into `directory` (`shownAs` is the
    /// folder as the user wrote it, for the paths the report prints) and returns the findings, most
    /// severe first, with ``Finding/pictures`` set. Nothing is written, and the folder is not made,
    /// when no finding changes the look.
    func draw(_ findings: [Finding], into directory: URL, shownAs folder: String) throws -> [Finding] {
        var result = LintReport.sorted(findings)
        var numbers: [String: Int] = [:]
        var before: Data?
        for index in result.indices where shows(result[index]) {
            let finding = result[index]
            let number = numbers[finding.rule, default: 0] + 1
            numbers[finding.rule] = number
            let name = "\(finding.rule)-\(number)"
            let original = try before ?? PassPreviewer.render(contents, options: options).data
            before = original
            let fixed = PassContents(pass: finding.fix!.apply(to: contents.pass), files: contents.files)
            let after = try PassPreviewer.render(fixed, options: options).data
            try AtomicFile.write(original, to: directory.appendingPathComponent("\(name)-before.png"))
            try AtomicFile.write(after, to: directory.appendingPathComponent("\(name)-after.png"))
            result[index].pictures = Finding.Pictures(before: Self.join(folder, "\(name)-before.png"), after: Self.join(folder, "\(name)-after.png"))
        }
        return result
    }

    /// `folder/name` as the user would type it.
    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
