/// A pass image file name split into the parts Wallet reads: `strip@2x.png` is the `strip` slot at scale 2.
public struct ImageName: Sendable, Hashable, CustomStringConvertible {
    /// The slot, e.g. `icon`, `logo`, `strip`.
    public let slot: String
    /// 1, 2 or 3.
    public let scale: Int

    /// Parses `name.png`, `name@2x.png`, `name@3x.png`; `nil` for anything else.
    public init?(fileName: String) {
        guard fileName.hasSuffix(".png") else { return nil }
        let stem = String(fileName.dropLast(4))
        if stem.hasSuffix("@2x") || stem.hasSuffix("@3x") {
            scale = stem.hasSuffix("@2x") ? 2 : 3
            slot = String(stem.dropLast(3))
        } else {
            scale = 1
            slot = stem
        }
        guard !slot.isEmpty else { return nil }
    }

    /// Builds the name of a slot at a scale.
    public init(slot: String, scale: Int) {
        self.slot = slot
        self.scale = scale
    }

    /// The file name, e.g. `logo@3x.png`.
    public var description: String { scale == 1 ? "\(slot).png" : "\(slot)@\(scale)x.png" }
}
