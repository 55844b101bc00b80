import Foundation
import PassModel
import WalletPackage

/// A signed pass: the archive bytes plus the facts a caller stores or reports.
public struct CompiledPass: Sendable {
    /// The typed pass that was signed.
    public let pass: Pass
    /// The exact `pass.json` bytes inside the archive.
    public let passJSON: Data
    /// The `.pkpass` bytes.
    public let archive: Data
    /// Warnings about the pass (unknown keys, soft limits); errors never get this far.
    public let warnings: [ValidationIssue]

    /// The pass's serial number.
    public var serialNumber: String { pass.serialNumber }
    /// The pass's web service token, if it has a web service.
    public var authenticationToken: String? { pass.authenticationToken }
}

/// A pass signed by a ``PassCompiler`` but not packaged: `pass.json`, its manifest and signature, and
/// whether it carries the template's personalization files (NFC passes only).
public struct SignedPass: Sendable, Hashable {
    /// What was signed.
    public let parts: SignedParts
    /// Whether the archive includes `personalization.json` and its logo.
    public let personalized: Bool

    public init(parts: SignedParts, personalized: Bool) {
        (self.parts, self.personalized) = (parts, personalized)
    }

    /// The bytes it holds.
    public var size: Int { parts.size }
}

/// A pass rendered, validated and encoded by a ``PassCompiler``, not signed yet: what a batch hands
/// from the task that prepares passes to the one that signs them.
public struct PreparedPass: Sendable {
    /// The typed pass.
    public let pass: Pass
    /// Warnings about the pass; errors never get this far.
    public let warnings: [ValidationIssue]
    /// The `pass.json` bytes that will be signed.
    let payload: Data
    /// The record's name, for errors from signing and packaging.
    public let recordName: String
}
