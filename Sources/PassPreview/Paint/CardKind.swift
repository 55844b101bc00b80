import Drawing
import PassModel

/// The layouts Wallet has, each with its own card size in points.
///
/// Width 375 pt is the width Apple sizes strip images for (375 × 144 store card and coupon strips,
/// 375 × 98 event ticket strips); the poster event ticket is 358 pt wide, its artwork's width.
enum CardKind: String, Sendable, Hashable {
    case storeCard, coupon, eventTicketStrip, eventTicket, generic, boardingPass, posterEventTicket

    /// The layout Wallet uses for `pass`: the poster layout when it is preferred and has its
    /// artwork; the event ticket's strip variant when it has a strip (a strip excludes background
    /// and thumbnail, Apple's "Pass Design and Creation").
    static func of(_ pass: Pass, images: PassImages) -> CardKind {
        switch pass.style {
        case .storeCard?: return .storeCard
        case .coupon?: return .coupon
        case .boardingPass?: return .boardingPass
        case .eventTicket?:
            if pass.preferredStyleSchemes.contains(.posterEventTicket), images.has("artwork") || images.has("background") {
                return .posterEventTicket
            }
            return images.has("strip") ? .eventTicketStrip : .eventTicket
        case .generic?, nil: return .generic
        }
    }

    var size: Size {
        switch self {
        case .boardingPass: return Size(width: 375, height: 500)
        case .posterEventTicket: return Size(width: 358, height: 690)
        case .eventTicket, .eventTicketStrip: return Size(width: 375, height: 484)
        case .storeCard, .coupon, .generic: return Size(width: 375, height: 468)
        }
    }

    /// The strip's height (Apple's image sizes).
    var stripHeight: Double { self == .eventTicketStrip ? 98 : 144 }

    /// Fields shown per group (Apple's field counts per style): header ≤ 3, primary 1 (2 on boarding
    /// passes), secondary ≤ 4, auxiliary ≤ 4 (5 on boarding passes).
    var limits: (primary: Int, secondary: Int, auxiliary: Int) {
        switch self {
        case .boardingPass: return (2, 4, 5)
        default: return (1, 4, 4)
        }
    }
}
