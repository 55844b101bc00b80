import Foundation
import ImageProcessing
import PassCompiler
import PassLint
import PassModel

/// `passwright images`: one master image made into a slot's `@1x`, `@2x` and `@3x` PNGs at the sizes
/// Wallet draws, or (`--check`) the list of a template's images that are missing or the wrong size.
struct ImagesCommand: Subcommand {
    static let spec = CommandSpec(
        name: "images",
        abstract: "Make a slot's @1x/@2x/@3x PNGs from one master (PNG, JPEG, WebP, SVG), or check a template's images.",
        discussion: """
        Writes <slot>.png, <slot>@2x.png and <slot>@3x.png into TEMPLATE_DIR at the sizes lint checks, in sRGB,
        keeping transparency except on background and artwork (drawn behind the whole pass). Exact-size slots
        (icon, strip, background, artwork) default to --fit cover (filled, centre-cropped); logo, thumbnail and
        footer default to --fit contain (whole image, at most the slot's size). A raster master smaller than @3x
        needs is a warning naming the size it should have. --style defaults to the style of TEMPLATE_DIR/pass.json.
        With --check TEMPLATE_DIR: lists images that are missing or the wrong size, each with the command that
        fixes it; exit status 1 when there are any.
        """,
        arguments: [CommandSpec.Argument(name: "MASTER", help: "The master image: PNG, JPEG, WebP or SVG.", optional: true)],
        options: [
            .value("slot", "SLOT", help: "icon, logo, strip, thumbnail, background, footer, artwork, primaryLogo, secondaryLogo or personalizationLogo."),
            .value("style", "STYLE", help: "boardingPass, coupon, eventTicket, posterEventTicket, generic or storeCard."),
            .value("out", "TEMPLATE_DIR", help: "The template folder (or one of its xx.lproj folders) to write into."),
            .value("fit", "contain|cover", help: "contain keeps the whole master; cover fills the slot and crops."),
            .value("check", "TEMPLATE_DIR", help: "Instead of making images, list a template's missing and wrongly sized ones."),
        ])

    enum Job {
        case make(master: URL, slot: String, style: PassStyle?, poster: Bool, out: URL, fit: ImageFit?)
        case check(URL)
    }

    let job: Job

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        if let check = arguments.value("check") {
            guard arguments.positional(0) == nil, arguments.value("slot") == nil, arguments.value("out") == nil else {
                throw UsageError("--check TEMPLATE_DIR takes no MASTER, --slot or --out")
            }
            job = .check(URL(fileURLWithPath: check))
            return
        }
        guard let master = arguments.positional(0) else { throw UsageError("missing argument MASTER (or use --check TEMPLATE_DIR)") }
        guard let slot = arguments.value("slot") else { throw UsageError("--slot is required") }
        guard ImageSpec.slots.contains(slot) else { throw UsageError("--slot is one of \(ImageSpec.slots.joined(separator: ", ")), not '\(slot)'") }
        guard let out = arguments.value("out") else { throw UsageError("--out TEMPLATE_DIR is required") }
        let fit = try arguments.value("fit").map { text throws(UsageError) -> ImageFit in
            guard let fit = ImageFit(rawValue: text) else { throw UsageError("--fit is contain or cover, not '\(text)'") }
            return fit
        }
        let outURL = URL(fileURLWithPath: out)
        let (style, poster) = try arguments.value("style").map(Self.style(named:)) ?? Self.style(ofTemplateAt: outURL)
        job = .make(master: URL(fileURLWithPath: master), slot: slot, style: style, poster: poster, out: outURL, fit: fit)
    }

    /// `posterEventTicket` is an event ticket with the poster scheme; the rest are pass styles.
    private static func style(named name: String) throws(UsageError) -> (PassStyle?, Bool) {
        if name == "posterEventTicket" { return (.eventTicket, true) }
        guard let style = PassStyle(rawValue: name) else {
            throw UsageError("--style is boardingPass, coupon, eventTicket, posterEventTicket, generic or storeCard, not '\(name)'")
        }
        return (style, false)
    }

    /// The style of `<folder>/pass.json` (or its parent's, for an `xx.lproj` folder), if there is one.
    private static func style(ofTemplateAt folder: URL) -> (PassStyle?, Bool) {
        let templateFolder = folder.pathExtension == "lproj" ? folder.deletingLastPathComponent() : folder
        guard let data = try? Data(contentsOf: templateFolder.appendingPathComponent("pass.json")),
              let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return (nil, false) }
        let style = PassStyle.allCases.first { object[$0.key] != nil }
        let schemes = object["preferredStyleSchemes"] as? [String] ?? []
        return (style, style == .eventTicket && schemes.contains("posterEventTicket"))
    }

    func run(console: Console) async throws -> ExitStatus {
        switch job {
        case let .check(folder):
            return try check(folder, console: console)
        case let .make(masterURL, slot, style, poster, out, fit):
            let data: Data
            do {
                data = try Data(contentsOf: masterURL)
            } catch {
                throw PassCompilerError.output(path: masterURL.path, message: "cannot read the master image: \(error.localizedDescription)")
            }
            let master = try MasterImage(data: data, source: masterURL.path)
            let set = try PassImageSet.make(from: master, slot: slot, style: style, poster: poster, fit: fit)
            for image in set.images {
                let file = out.appendingPathComponent(image.fileName)
                try AtomicFile.write(image.png, to: file)
                console.out("\(file.path)  \(image.width)×\(image.height) px\(image.hasAlpha ? ", with alpha" : "")")
            }
            for warning in set.warnings { console.err("Warning: \(warning)") }
            return .success
        }
    }

    /// Lint's image findings for the template: the same rules, so `--check` and `lint` never disagree.
    private func check(_ folder: URL, console: Console) throws -> ExitStatus {
        let all: [Finding]
        do {
            // Without `requiringIcon`, a missing icon is reported with every other image problem.
            all = Linter().lint(template: try Template.load(from: folder, requiringIcon: false), now: Date())
        } catch {
            all = Linter.findings(for: error)
        }
        let findings = all.filter { $0.rule.hasPrefix("image.") || $0.rule == "poster.backgroundImage" }
        guard !findings.isEmpty else {
            console.out("\(folder.path): every image is present at the size Wallet draws it")
            return .success
        }
        console.out(LintReport.markdownTable(findings).replacingOccurrences(of: "--out TEMPLATE", with: "--out \(folder.path)"))
        return .failure
    }
}
