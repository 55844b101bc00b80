import PassCompiler
import PassModel

/// Images: the icon every pass needs, every slot at @2x and @3x, at the size its style draws, and
/// only slots the style shows; plus the poster image requirement and packaging oddities.
enum ImageRules: LintRules {
    static func findings(in context: LintContext) -> [Finding] {
        guard let files = context.files else { return [] }
        return icon(files) + sizes(context, files) + scaleMismatches(context, files) + usage(context, files) + packaging(context, files)
    }

    /// `@2x`/`@3x` not exactly two or three times `@1x`: Wallet scales the image and shows the pass
    /// (Apple's validator does not check it), so this is a warning, never a refusal.
    private static func scaleMismatches(_ context: LintContext, _ files: LintFiles) -> [Finding] {
        var bySlot: [String: [Int: LintFiles.Image]] = [:]
        for image in files.images {
            bySlot[(image.language.map { "\($0).lproj/" } ?? "") + image.name.slot, default: [:]][image.name.scale] = image
        }
        var findings: [Finding] = []
        for (_, scales) in bySlot.sorted(by: { $0.key < $1.key }) {
            guard let baseScale = scales.keys.min(), let base = scales[baseScale] else { continue }
            for (scale, variant) in scales.sorted(by: { $0.key < $1.key }) where scale != baseScale {
                let width = base.png.width * scale / baseScale, height = base.png.height * scale / baseScale
                guard variant.png.width != width || variant.png.height != height else { continue }
                findings.append(Finding(
                    rule: "image.scaleMismatch", severity: .warning, location: variant.path,
                    before: "\(variant.png.width)×\(variant.png.height) px while \(base.path) is \(base.png.width)×\(base.png.height) px",
                    after: "\(width)×\(height) px: \(fix(context, slot: variant.name.slot, folder: variant.language.map { "\($0).lproj" } ?? ""))",
                    effect: "The image is drawn sharp at its scale instead of being resized by Wallet, slightly blurred or cropped."))
            }
        }
        return findings
    }

    /// The `passwright images` command line that makes `slot`'s three sizes for this pass, in
    /// `folder` (a localization's `xx.lproj/`) of the template, so every image finding says how to fix it.
    static func fix(_ context: LintContext, slot: String, folder: String = "") -> String {
        let poster = context.pass.preferredStyleSchemes.contains(.posterEventTicket)
        let style = poster ? " --style posterEventTicket" : context.pass.style.map { " --style \($0.key)" } ?? ""
        return "passwright images MASTER --slot \(slot)\(style) --out TEMPLATE\(folder.isEmpty ? "" : "/" + folder.dropLast())"
    }

    private static func icon(_ files: LintFiles) -> [Finding] {
        let languages = Set(files.localizations.keys).union(files.images.compactMap(\.language))
        let atRoot = files.images.contains { $0.name.slot == "icon" && $0.language == nil }
        let inEveryLanguage = !languages.isEmpty && languages.allSatisfy { language in
            files.images.contains { $0.name.slot == "icon" && $0.language == language }
        }
        guard !atRoot, !inEveryLanguage else { return [] }
        return [iconMissing]
    }

    /// Every pass needs an icon (Apple: "The icon is required"); also reported when a template cannot load without one.
    static let iconMissing = Finding(
        rule: "image.iconMissing", severity: .error, location: "icon.png", before: Finding.missing,
        after: "icon.png 38×38 px, icon@2x.png 76×76 px, icon@3x.png 114×114 px: passwright images MASTER --slot icon --out TEMPLATE",
        effect: "The pass can be added at all: without an icon Wallet refuses it, and notifications and Mail show the icon.")

    private static func sizes(_ context: LintContext, _ files: LintFiles) -> [Finding] {
        var findings: [Finding] = []
        let poster = context.pass.preferredStyleSchemes.contains(.posterEventTicket)
        var scalesBySlot: [String: Set<Int>] = [:]
        for image in files.images {
            let folder = image.language.map { "\($0).lproj/" } ?? ""
            scalesBySlot[folder + image.name.slot, default: []].insert(image.name.scale)
            guard let spec = ImageSpec.forSlot(image.name.slot, style: context.pass.style, poster: poster),
                  let legacy = spec.check(width: image.png.width, height: image.png.height, scale: image.name.scale) else { continue }
            findings.append(Finding(
                rule: legacy ? "image.legacySize" : "image.size", severity: .warning, location: image.path,
                before: "\(image.png.width)×\(image.png.height) px",
                after: spec.expected(scale: image.name.scale) + ": " + fix(context, slot: image.name.slot, folder: image.language.map { "\($0).lproj/" } ?? ""),
                effect: legacy
                    ? "The image fills its slot on current iPhones instead of the older layout's size, which is now scaled and cropped."
                    : "The image is drawn sharp and whole instead of being scaled, stretched or cropped by Wallet."))
        }
        for (slot, scales) in scalesBySlot.sorted(by: { $0.key < $1.key }) {
            for scale in [2, 3] where !scales.contains(scale) {
                let name = ImageName(slot: String(slot.split(separator: "/").last!), scale: scale)
                let folder = slot.contains("/") ? String(slot.split(separator: "/")[0]) + "/" : ""
                let spec = ImageSpec.forSlot(name.slot, style: context.pass.style, poster: poster)
                findings.append(Finding(
                    rule: "image.scales", severity: .warning, location: folder + name.description, before: Finding.missing,
                    after: folder + name.description + (spec.map { " \($0.exact ? "at " : "")\($0.expected(scale: scale))" } ?? "")
                        + (spec == nil ? "" : ": " + fix(context, slot: name.slot, folder: folder)),
                    effect: "The image is crisp on \(scale == 2 ? "Retina" : "Super Retina") screens instead of upscaled and blurry."))
            }
        }
        return findings
    }

    private static func usage(_ context: LintContext, _ files: LintFiles) -> [Finding] {
        var findings: [Finding] = []
        let pass = context.pass
        let shown = ImageSpec.shownSlots(for: pass, hasPersonalization: files.hasPersonalization)
        let slots = Set(files.images.map(\.name.slot))
        for slot in slots.subtracting(shown).sorted() {
            let paths = files.images.filter { $0.name.slot == slot }.map(\.path).sorted()
            findings.append(Finding(
                rule: "image.unused", severity: .warning, location: paths.joined(separator: ", "), before: "\(slot) on \(context.styleKey)",
                after: "remove " + paths.joined(separator: ", "),
                effect: "The pass downloads faster and looks as designed; a \(context.styleKey) never draws a \(slot) image."))
        }
        if pass.style == .eventTicket, slots.contains("strip"), slots.contains("background") || slots.contains("thumbnail") {
            let other = slots.contains("background") ? "background" : "thumbnail"
            findings.append(Finding(
                rule: "image.stripConflict", severity: .warning, location: "strip.png, \(other).png", before: "strip + \(other)",
                after: "keep either strip.png or \(other).png",
                effect: "The ticket shows the image you chose; with a strip, Wallet drops the \(other) without telling anyone."))
        }
        if pass.preferredStyleSchemes.contains(.posterEventTicket), !files.has("background"), !files.has("artwork") {
            findings.append(Finding(
                rule: "poster.backgroundImage", severity: .error, location: "background.png", before: Finding.missing,
                after: "background.png 345×505 px (+ @2x 690×1010, @3x 1035×1515) or artwork.png 358×448 px: " + fix(context, slot: "background"),
                effect: "The holder gets the poster ticket that was designed instead of Wallet silently falling back to the classic layout."))
        }
        return findings
    }

    private static func packaging(_ context: LintContext, _ files: LintFiles) -> [Finding] {
        var findings: [Finding] = []
        let rootSlots = Set(files.images.filter { $0.language == nil }.map(\.name.slot))
        let overridden = files.images.filter { $0.language != nil && rootSlots.contains($0.name.slot) }.map(\.path).sorted()
        if !overridden.isEmpty {
            findings.append(Finding(
                rule: "image.localizedOverride", severity: .warning, location: overridden.joined(separator: ", "),
                before: "localized and root copies of the same image", after: "remove the root copies, or the localized ones",
                effect: "Readers see their language's image; a root image of the same name always wins over localized copies."))
        }
        if files.hasPersonalization, context.pass.nfc == nil {
            findings.append(Finding(
                rule: "personalization.withoutNFC", severity: .warning, location: "personalization.json", before: "personalization.json without nfc",
                after: "add \"nfc\" to pass.json, or remove personalization.json and personalizationLogo*.png",
                effect: "The sign-up sheet the template prepares actually appears; without NFC the compiler leaves it out."))
        }
        for skipped in files.skipped {
            findings.append(Finding(
                rule: "template.skippedFile", severity: .warning,
                location: skipped.components(separatedBy: " (").first ?? skipped, before: skipped,
                after: "remove it from the template folder",
                effect: "The folder holds exactly what the holder receives, so nothing expected silently goes missing."))
        }
        return findings
    }
}
