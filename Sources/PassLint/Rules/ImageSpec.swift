import PassModel

/// The point sizes Wallet draws each image slot at (Apple's Human Interface Guidelines for Wallet, current sizes), with the legacy
/// sizes still accepted, and which slots a pass's style shows.
struct ImageSpec: Sendable {
    /// Points; `exact` slots must match, the others must fit inside.
    let width: Int, height: Int
    let exact: Bool
    /// Older sizes Wallet still draws (a warning, not an error).
    let legacy: [(width: Int, height: Int)]

    static func forSlot(_ slot: String, style: PassStyle?, poster: Bool) -> ImageSpec? {
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

    /// Whether `pixels` is right at `scale`: `nil` when right, `true` for a legacy size, `false` wrong.
    func check(width pixelWidth: Int, height pixelHeight: Int, scale: Int) -> Bool? {
        let fits = exact
            ? pixelWidth == width * scale && pixelHeight == height * scale
            : pixelWidth <= width * scale && pixelHeight <= height * scale
        if fits { return nil }
        return legacy.contains { pixelWidth == $0.width * scale && pixelHeight == $0.height * scale }
    }

    /// The text of the expected size at `scale`.
    func expected(scale: Int) -> String {
        "\(exact ? "" : "at most ")\(width * scale)×\(height * scale) px"
    }

    /// The slots a pass shows (Apple's "Building a Pass" and the Human Interface Guidelines): classic ones per style, poster ones with their scheme.
    static func shownSlots(for pass: Pass, hasPersonalization: Bool) -> Set<String> {
        var slots: Set<String> = ["icon", "logo"]
        switch pass.style {
        case .boardingPass?:
            slots.insert("footer")
            if pass.preferredStyleSchemes.contains(.semanticBoardingPass) { slots.insert("primaryLogo") }
        case .coupon?, .storeCard?:
            slots.insert("strip")
        case .eventTicket?:
            slots.formUnion(["strip", "background", "thumbnail"])
            if pass.preferredStyleSchemes.contains(.posterEventTicket) {
                slots.formUnion(["primaryLogo", "secondaryLogo", "artwork", "venueMap"])
            }
        case .generic?:
            slots.insert("thumbnail")
        case nil:
            break
        }
        if pass.posterGeneric != nil { slots.formUnion(["artwork", "primaryLogo"]) }
        if hasPersonalization, pass.nfc != nil { slots.insert("personalizationLogo") }
        return slots
    }
}
