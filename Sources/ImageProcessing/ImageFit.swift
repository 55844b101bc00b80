/// How a master whose shape differs from its slot's is fitted into it.
public enum ImageFit: String, Sendable, CaseIterable {
    /// The whole master stays visible: scaled to fit inside, and centred on a transparent (or, where
    /// the slot must be opaque, white) canvas when the slot has an exact size.
    case contain
    /// The slot is filled: scaled to cover it, the overflow cropped around the centre.
    case cover

    /// `cover` for slots with an exact size (strip, background, artwork, icon), so they are filled
    /// edge to edge; `contain` for slots Wallet sizes up to a maximum (logo, thumbnail, footer), so
    /// nothing of a logo is cut off.
    public static func `default`(exact: Bool) -> ImageFit {
        exact ? .cover : .contain
    }
}
