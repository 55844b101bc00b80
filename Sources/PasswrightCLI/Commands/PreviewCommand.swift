import Foundation
import PassCompiler
import PassModel
import PassPreview

/// `passwright preview`: a picture of a pass as Wallet lays it out, from a template (with a record,
/// or its placeholders' names) or from a signed `.pkpass` (what the holder sees).
struct PreviewCommand: Subcommand {
    static let spec = CommandSpec(
        name: "preview",
        abstract: "Draw a pass as Wallet shows it (front, back or both) as PNG or SVG, from a template or a .pkpass.",
        discussion: """
        From a template folder, renders it with --record (a JSON object, as build takes) or, without one, with each
        placeholder showing its own name. From a .pkpass, draws what the holder would see. --locale picks the
        xx.lproj Wallet would pick (pt-BR, then pt, then en) and formats numbers and dates for it. Text is set in
        Inter with Noto for the scripts Inter lacks (Debian's fonts-inter, fonts-noto-core, fonts-noto-cjk).
        Problems that do not stop the picture (an unreadable image, a barcode message too long for its format) are
        drawn where they happen and listed on standard error; the exit status is then 2.
        """,
        arguments: [CommandSpec.Argument(name: "TEMPLATE|FILE.pkpass", help: "A template folder or a signed .pkpass.")],
        options: [
            .value("record", "FILE", help: "One JSON record to fill the template with (- reads standard input)."),
            .value("locale", "LANG", help: "The holder's language, e.g. de or pt-BR (default: pass.json as written)."),
            .value("side", "front|back|both", help: "Which side to draw (default: front)."),
            .value("scale", "1|2|3", help: "Pixels per point, as Wallet's @1x/@2x/@3x (default: 2)."),
            .value("format", "png|svg", help: "Picture format (default: png)."),
            .value("out", "FILE|-", help: "Where to write the picture; - writes it to standard output."),
        ])

    let source: String
    let record: String?
    let options: PreviewOptions
    let out: String

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        source = arguments.positional(0)!
        record = arguments.value("record")
        guard let out = arguments.value("out") else { throw UsageError("--out FILE is required (- for standard output)") }
        self.out = out
        var options = PreviewOptions()
        if let side = arguments.value("side") {
            guard let value = PreviewOptions.Side(rawValue: side) else { throw UsageError("--side is front, back or both, not '\(side)'") }
            options.side = value
        }
        if let scale = arguments.value("scale") {
            guard let value = Int(scale), PreviewOptions.scales.contains(value) else { throw UsageError("--scale is 1, 2 or 3, not '\(scale)'") }
            options.scale = value
        }
        let format = arguments.value("format") ?? (out.hasSuffix(".svg") ? "svg" : "png")
        guard let value = PreviewOptions.Format(rawValue: format) else { throw UsageError("--format is png or svg, not '\(format)'") }
        options.format = value
        options.locale = arguments.value("locale")
        self.options = options
        if source.hasSuffix(".pkpass"), record != nil { throw UsageError("--record applies to templates, not to a .pkpass") }
    }

    func run(console: Console) async throws -> ExitStatus {
        let contents: PassContents
        if source.hasSuffix(".pkpass") {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: source))
            } catch {
                throw PassCompilerError.output(path: source, message: "cannot read the pass: \(error.localizedDescription)")
            }
            contents = try PassContents(pkpass: data, source: source)
        } else {
            let template = try Template.load(from: URL(fileURLWithPath: source))
            let recordValue = try record.map { try BuildCommand.readRecord($0, name: $0 == "-" ? "standard input" : $0) } ?? template.sampleRecord
            contents = try PassContents(template: template, record: recordValue, recordName: record ?? "the placeholders' names")
        }
        let preview = try PassPreviewer.render(contents, options: options)
        if out == "-" {
            console.outBytes(preview.data)
        } else {
            try AtomicFile.write(preview.data, to: URL(fileURLWithPath: out))
            console.err("\(out)  \(preview.pixelWidth)×\(preview.pixelHeight) px, \(options.side.rawValue), @\(options.scale)x\(options.locale.map { ", \($0)" } ?? "")")
        }
        for problem in preview.problems { console.err("Warning: \(problem)") }
        return preview.problems.isEmpty ? .success : .warnings
    }
}
