import Foundation
import PassCompiler
import PassLint
import PassModel
import PassPreview
import Signing

/// `passwright lint`: every reason a pass won't open, and a designer's review, as one table.
struct LintCommand: Subcommand {
    static let spec = CommandSpec(
        name: "lint",
        abstract: "Review a template, .pkpass or order folder: what Wallet refuses, and what reads, localizes or ages badly.",
        discussion: """
        A template is linted from its source: {{placeholders}} are unknown values, so rules that judge a value
        skip them. --record and --records render records exactly as build does and add what the filled-in values
        reveal (a record that cannot render, a value that breaks a rule, one barcode message on several passes).
        With --record, or on a .pkpass, the pass is also drawn, and values the front cuts off with an ellipsis are
        findings (glance.valueCutOff). --pictures DIR draws, for each finding that changes the look (contrast, too
        many fields, values cut off), the pass before and after that fix as DIR/<rule>-<n>-before.png and
        -after.png (front and back, @2x, from --record or the placeholders' names); the table links them and JSON
        gives their paths under "pictures".
        An order folder (order.json, no pass.json) is checked as Wallet reads it: decoding, the model's rules
        (types, enumerations, dates, URLs) and the files it names, each problem by JSON path.
        Output: one markdown table, Before | After | What this changes, most severe first (or --format json).
        Exit status: 0 clean (advice allowed), 1 with errors, 2 with warnings under --strict, 64 usage.
        """,
        arguments: [CommandSpec.Argument(name: "TARGET", help: "A template folder, a .pkpass file or an order folder.")],
        options: [
            .value("record", "FILE", help: "One JSON record to render the template with (e.g. Templates/samples/<name>.json)."),
            .value("records", "FILE", help: "Records to render: a .csv or .jsonl file."),
            .value("identities", "DIR", help: "Identities folder: check the pass type's certificate (identifiers, expiry, WWDR)."),
            .value("web-service-url", "URL", help: "The web service URL builds write in (default: $PASSWRIGHT_WEB_SERVICE_URL)."),
            .value("format", "table|json", help: "Output format (default: table)."),
            .value("pictures", "DIR", help: "Draw before/after pictures of each finding that changes the look into DIR (made if missing)."),
            .flag("strict", help: "Exit 2 when there are warnings."),
        ])

    enum Format: String {
        case table, json
    }

    let target: String
    let record: String?
    let records: String?
    let identities: IdentityOptions?
    let webServiceURL: String?
    let format: Format
    let strict: Bool
    let pictures: String?

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        target = arguments.positional(0)!
        record = arguments.value("record")
        records = arguments.value("records")
        if let records, RecordReader.Format(fileName: records) == nil {
            throw UsageError("cannot tell the format of '\(records)' from its extension; use a .csv or .jsonl file")
        }
        identities = arguments.value("identities") == nil ? nil : IdentityOptions(arguments: arguments, environment: environment)
        webServiceURL = arguments.value("web-service-url") ?? environment["PASSWRIGHT_WEB_SERVICE_URL"]
        let name = arguments.value("format") ?? "table"
        guard let format = Format(rawValue: name) else { throw UsageError("--format is table or json, not '\(name)'") }
        self.format = format
        strict = arguments.flag("strict")
        pictures = arguments.value("pictures")
        if target.hasSuffix(".pkpass"), record != nil || records != nil || identities != nil {
            throw UsageError("--record, --records and --identities apply to templates, not to a .pkpass")
        }
    }

    func run(console: Console) async throws -> ExitStatus {
        let now = Date()
        let url = URL(fileURLWithPath: target)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: target, isDirectory: &isFolder) else {
            throw PassCompilerError.templateNotFound(path: target)
        }
        var findings: [Finding]
        // The pass as drawn: the template with --record (or its placeholders' names), or the archive.
        var drawn: Result<PassContents, PreviewError>?
        // Whether its values are real, so what the front cuts off is a finding.
        var realValues = false
        if isFolder.boolValue, BuildSource.of(url) == .orderFolder {
            guard record == nil, records == nil, pictures == nil else {
                throw UsageError("--record, --records and --pictures apply to pass templates; an order folder is linted as it is")
            }
            findings = try OrderLint.findings(in: url)
            return report(findings, console: console)
        }
        if isFolder.boolValue {
            let template: Template?, recordValue: JSONValue?
            (findings, template, recordValue) = try lintTemplate(at: url, now: now)
            if let template, record != nil || pictures != nil {
                let value = recordValue ?? template.sampleRecord
                drawn = Result { () throws(PreviewError) in
                    try PassContents(template: template, record: value, recordName: record ?? "the placeholders' names")
                }
                realValues = record != nil
            }
        } else {
            let archive: Data
            do {
                archive = try Data(contentsOf: url)
            } catch {
                throw PassCompilerError.invalidArchive(entry: target, message: "cannot be read: \(error.localizedDescription)")
            }
            findings = Linter(webServiceURL: webServiceURL).lint(archive: archive, now: now)
            drawn = Result { () throws(PreviewError) in try PassContents(pkpass: archive, source: target) }
            realValues = true
        }
        // The record's findings are named as lint(template:records:) names its one record.
        let recordName = isFolder.boolValue && record != nil ? "record 1" : nil
        if realValues, case .success(let contents)? = drawn {
            findings += try CutOffValues.findings(in: contents, record: recordName, besides: findings)
        }
        if let pictures {
            switch drawn {
            case .success(let contents)?:
                let folder = URL(fileURLWithPath: pictures, isDirectory: true)
                findings = try LintPictures(contents: contents, record: recordName).draw(findings, into: folder, shownAs: pictures)
            case .failure(let error)?:
                console.err("Warning: no pictures: \(error)")
            case nil:
                console.err("Warning: no pictures: the template does not load")
            }
        }
        return report(findings, console: console)
    }

    /// Writes the findings as asked and answers the exit status they mean.
    private func report(_ findings: [Finding], console: Console) -> ExitStatus {
        switch format {
        case .table: console.out(findings.isEmpty ? "\(target): no findings" : LintReport.markdownTable(findings))
        case .json: console.outBytes(LintReport.json(findings) + Data("\n".utf8))
        }
        if findings.contains(where: { $0.severity == .error }) { return .failure }
        if strict, findings.contains(where: { $0.severity == .warning }) { return .warnings }
        return .success
    }

    /// The template's findings, and the template and `--record` (read once: it may be standard input)
    /// when it loads.
    private func lintTemplate(at url: URL, now: Date) throws -> ([Finding], Template?, JSONValue?) {
        let template: Template
        do {
            template = try Template.load(from: url, requiringIcon: false)
        } catch {
            return (Linter.findings(for: error), nil, nil)
        }
        var linter = Linter(webServiceURL: webServiceURL)
        var certificate: Certificate?
        if let identities {
            certificate = try identities.directory.identity(forPassTypeIdentifier: template.passTypeIdentifier).certificate
            linter.intermediates = (try? identities.directory.intermediates()) ?? []
        }
        var findings = linter.lint(template: template, identity: certificate, now: now)
        let recordValue = try record.map { try BuildCommand.readRecord($0, name: $0) }
        if let recordValue {
            findings += linter.lint(template: template, records: [recordValue], now: now)
        }
        if let records {
            let handle: FileHandle
            do {
                handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: records))
            } catch {
                throw PassCompilerError.invalidRecord(record: records, message: "cannot be read: \(error.localizedDescription)")
            }
            defer { try? handle.close() }
            var reader = try RecordReader(handle: handle, format: RecordReader.Format(fileName: records)!, file: (records as NSString).lastPathComponent)
            findings += linter.lint(template: template, records: &reader, now: now)
        }
        return (findings, template, recordValue)
    }
}
