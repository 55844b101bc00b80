/// The point sizes Wallet draws each image slot at, with the legacy sizes still accepted, and which
/// slots a pass's style shows: the one table both `passwright lint` (checking) and `passwright
/// images` (making) read, so what one makes the other accepts.
///
/// Sizes follow Apple's current pass tooling and "Creating a pass with Pass Designer"; the legacy
/// ones come from Apple's archived "Pass Design and Creation" guide (its "Images" section).
public struct ImageSpec: Sendable {
    /// Points; `exact` slots must match, the others must fit inside.
    public let width: Int, height: Int
    /// Whether the image must be exactly `width`×`height` points (else at most that).
    public let exact: Bool
    /// Older sizes Wallet still draws (a warning, not an error).
    let legacy: [(width: Int, height: Int)]

    /// Every slot this table knows, in the order `passwright images --help` lists them.
    public static let slots = ["icon", "logo", "strip", "thumbnail", "background", "footer", "artwork",
                               "primaryLogo", "secondaryLogo", "personalizationLogo"]

    /// The spec of `slot` on a pass of `style` (`poster` for a poster event ticket), `nil` for an unknown slot.
    public static func forSlot(_ slot: String, style: PassStyle?, poster: Bool) -> ImageSpec? {
        switch slot {
        case "icon": return ImageSpec(width: 38, height: 38, exact: true, legacy: [(29, 29)])
        case "logo": return ImageSpec(width: 160, height: 50, exact: false, legacy: [])
        case "primaryLogo": return ImageSpec(width: 126, height: 30, exact: false, legacy: [])
        case "secondaryLogo": return ImageSpec(width: 135, height: 12, exact: false, legacy: [])
        case "strip": return ImageSpec(width: 375, height: 144, exact: true, legacy: [style == .eventTicket ? (375, 98) : (375, 123)])
        case "thumbnail": return ImageSpec(width: 90, height: 90, exact: false, legacy: [])
        case "background": return ImageSpec(width: 345, height: 505, exact: true, legacy: poster ? [] : [(180, 220)])
        case "artwork": return ImageSpec(width: 358, height: 448, exact: true, legacy: [])
        case "footer": return ImageSpec(width: 286, height: 15, exact: false, legacy: [])
        case "personalizationLogo": return ImageSpec(width: 150, height: 40, exact: true, legacy: [])
        default: return nil
        }
    }

    /// Whether the slot may be transparent. Backgrounds and poster artwork fill the whole pass and
    /// Wallet derives its automatic colours from them, so they are made opaque; every other slot
    /// sits on the pass's background colour and keeps its alpha channel.
    public static func allowsTransparency(_ slot: String) -> Bool {
        !["background", "artwork"].contains(slot)
    }

    /// The largest (or exact) size in pixels at `scale` (1, 2 or 3).
    public func pixels(scale: Int) -> (width: Int, height: Int) {
        (width * scale, height * scale)
    }

    /// Whether `pixels` is right at `scale`: `nil` when right, `true` for a legacy size, `false` wrong.
    public func check(width pixelWidth: Int, height pixelHeight: Int, scale: Int) -> Bool? {
        let fits = exact
            ? pixelWidth == width * scale && pixelHeight == height * scale
            : pixelWidth <= width * scale && pixelHeight <= height * scale
        if fits { return nil }
        return legacy.contains { pixelWidth == $0.width * scale && pixelHeight == $0.height * scale }
    }

    /// The text of the expected size at `scale`.
    public func expected(scale: Int) -> String {
        "\(exact ? "" : "at most ")\(width * scale)×\(height * scale) px"
    }

    /// The slots a classic pass of `style` shows (Apple's "Pass Design and Creation", "Images"
    /// table), with the poster event ticket's when `poster` is set.
    public static func shownSlots(style: PassStyle?, poster: Bool) -> Set<String> {
        var slots: Set<String> = ["icon", "logo"]
        switch style {
        case .boardingPass?: slots.insert("footer")
        case .coupon?, .storeCard?: slots.insert("strip")
        case .eventTicket?:
            slots.formUnion(["strip", "background", "thumbnail"])
            if poster { slots.formUnion(["primaryLogo", "secondaryLogo", "artwork", "venueMap"]) }
        case .generic?: slots.insert("thumbnail")
        case nil: break
        }
        return slots
    }

    /// The slots a pass shows: its style's, plus those its schemes, poster layout and personalization add.
    public static func shownSlots(for pass: Pass, hasPersonalization: Bool) -> Set<String> {
        var slots = shownSlots(style: pass.style, poster: pass.preferredStyleSchemes.contains(.posterEventTicket))
        if pass.style == .boardingPass, pass.preferredStyleSchemes.contains(.semanticBoardingPass) { slots.insert("primaryLogo") }
        if pass.posterGeneric != nil { slots.formUnion(["artwork", "primaryLogo"]) }
        if hasPersonalization, pass.nfc != nil { slots.insert("personalizationLogo") }
        return slots
    }
}
