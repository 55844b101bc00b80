/// The classic style of a pass; the raw value is its `pass.json` key.
///
/// Exactly one is allowed per pass (`posterGeneric` is not one of them: it sits next to a classic
/// style that older systems use).
public enum PassStyle: String, Sendable, Hashable, CaseIterable {
    case boardingPass, coupon, eventTicket, generic, storeCard

    /// The JSON key of the style dictionary.
    public var key: String { rawValue }
}

extension Pass {
    /// The field dictionary stored under a classic style key.
    public subscript(style: PassStyle) -> PassFields? {
        get {
            switch style {
            case .boardingPass: return boardingPass
            case .coupon: return coupon
            case .eventTicket: return eventTicket
            case .generic: return generic
            case .storeCard: return storeCard
            }
        }
        set {
            switch style {
            case .boardingPass: boardingPass = newValue
            case .coupon: coupon = newValue
            case .eventTicket: eventTicket = newValue
            case .generic: generic = newValue
            case .storeCard: storeCard = newValue
            }
        }
    }

    /// The classic styles present, in `PassStyle` order; more than one is an error.
    public var presentStyles: [PassStyle] {
        PassStyle.allCases.filter { self[$0] != nil }
    }

    /// The pass's style, or `nil` when there is not exactly one classic style key
    /// (``validate()`` reports that as `style.exactlyOne`).
    public var style: PassStyle? {
        let present = presentStyles
        return present.count == 1 ? present[0] : nil
    }

    /// Every style dictionary present with its JSON key: the classic ones, then `posterGeneric`.
    var styleDictionaries: [(key: String, fields: PassFields)] {
        var result = presentStyles.map { (key: $0.key, fields: self[$0]!) }
        if let posterGeneric { result.append((key: "posterGeneric", fields: posterGeneric)) }
        return result
    }
}
