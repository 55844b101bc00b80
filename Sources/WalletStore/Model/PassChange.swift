import Foundation
/// What a write sets on a pass; a `nil` field keeps the stored value.
///
/// The store compares JSON as text: canonicalize it (for example with sorted keys) before handing it
/// over, so an unchanged record is recognised as unchanged and advances nothing.
public struct PassChange: Sendable, Hashable {
    /// The new record (JSON text), or `nil` to keep it.
    public var data: String?
    /// The new overrides (JSON text), or `nil` to keep them.
    public var overrides: String?
    /// The new voided flag, or `nil` to keep it.
    public var voided: Bool?
    /// The template version the pass renders from after the write (a roll-out), or `nil` to keep it.
    public var templateVersion: Int64?
    /// The `expirationDate` the changed pass renders with (`.some(nil)`: none), or `nil` to keep the
    /// one recorded. Derived from the rest, so it never makes a change alter a pass by itself.
    public var expiresAt: Date??

    /// A change of any of the mutable parts.
    public init(data: String? = nil, overrides: String? = nil, voided: Bool? = nil, templateVersion: Int64? = nil) {
        self.data = data
        self.overrides = overrides
        self.voided = voided
        self.templateVersion = templateVersion
    }

    /// Whether applying the change to `pass` would alter anything; an equal change is a no-op.
    func alters(_ pass: StoredPass) -> Bool {
        (data.map { $0 != pass.data } ?? false)
            || (overrides.map { $0 != pass.overrides } ?? false)
            || (voided.map { $0 != pass.voided } ?? false)
            || (templateVersion.map { $0 != pass.templateVersion } ?? false)
    }
}
