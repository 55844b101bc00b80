import Foundation
import PassModel

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
