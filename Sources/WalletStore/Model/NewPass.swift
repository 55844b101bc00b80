import Foundation
import PassModel
/// A pass to create: the store keeps the JSON texts opaque and never looks inside them.
public struct NewPass: Sendable, Hashable, CustomStringConvertible {
    /// The pass's permanent identity.
    public var key: PassKey
    /// The name of the template the pass is compiled from.
    public var template: String
    /// The record (JSON text) the template is rendered with.
    public var data: String
    /// Per-pass top-level `pass.json` overrides (JSON text, such as `locations` or `relevantDates`).
    public var overrides: String
    /// The `authenticationToken` the caller generated; stored as given so the pass can be re-issued
    /// with the same token (Apple: it cannot change), and never printed.
    public var authenticationToken: String
    /// Whether the pass starts voided.
    public var voided: Bool
    /// The template version it is rendered from (the current one when it is issued).
    public var templateVersion: Int64
    /// Its `expirationDate` as rendered, so that passes past it can be found (and voided) by a seek.
    public var expiresAt: Date?

    /// A pass with no overrides, not voided.
    public init(key: PassKey, template: String, data: String, overrides: String = "{}", authenticationToken: String, voided: Bool = false, templateVersion: Int64 = 0, expiresAt: Date? = nil) {
        self.key = key
        self.template = template
        self.data = data
        self.overrides = overrides
        self.authenticationToken = authenticationToken
        self.voided = voided
        self.templateVersion = templateVersion
        self.expiresAt = expiresAt
    }

    /// The key and template only: the token must not reach a log.
    public var description: String { "NewPass(\(key), template: \(template))" }
}
