import Foundation
import PassModel
import PassPreview
import PasswrightTesting

/// Small passes written in the test, with the loyalty sample's icon so they are complete.
enum PreviewFixtures {
    /// A pass of `style` whose field groups are `fields` (JSON members), with `extra` top-level members.
    static func pass(style: String, fields: String, extra: String = "", files: [String: Data] = [:],
                     barcode: String = #"{"format": "PKBarcodeFormatQR", "message": "TEST-123", "messageEncoding": "iso-8859-1"}"#) throws -> PassContents {
        let json = #"""
        {"formatVersion": 1, "passTypeIdentifier": "pass.dev.passwright.test", "teamIdentifier": "PASSWRIGHT",
         "serialNumber": "S-1", "organizationName": "Test Shop", "description": "Test pass",
         "backgroundColor": "rgb(20, 40, 120)", "foregroundColor": "rgb(255, 255, 255)", "labelColor": "rgb(200, 210, 255)",
         "barcodes": [\#(barcode)]\#(extra),
         "\#(style)": {\#(fields)}}
        """#
        let (pass, _) = try Pass.decodeAll(try JSONValue.parse(Data(json.utf8)))
        let icon = try Data(contentsOf: Repository.templates.appendingPathComponent("loyalty/icon.png"))
        return PassContents(pass: pass, files: ["icon.png": icon].merging(files) { _, new in new })
    }
}
