import Foundation
import PasswrightTesting

/// The shared dev identities (a root, the intermediate and a Pass Type ID identity for each sample
/// template's pass type, `pass.dev.passwright.<name>` of team PASSWRIGHT): the test kit's
/// ``ThrowawayPKI``, under the name these suites know it by.
typealias ServiceIdentities = ThrowawayPKI

/// The repository's sample templates (`Templates/<name>/`) and records (`Templates/samples/<name>.json`).
enum Samples {
    static let packageRoot = Repository.root
    static let templatesFolder = Repository.templates
    static let templateNames = ["loyalty", "concert", "boarding", "coupon", "membership", "poster-event"]

    /// A template's sample record.
    static func record(_ template: String) throws -> JSON {
        try JSON(parsing: Data(contentsOf: templatesFolder.appendingPathComponent("samples/\(template).json")))
    }

    /// A sample record with its `authenticationToken` chosen, so a test can act as the device.
    static func record(_ template: String, authenticationToken: String) throws -> JSON {
        var record = try record(template)
        record["authenticationToken"] = .string(authenticationToken)
        return record
    }
}
