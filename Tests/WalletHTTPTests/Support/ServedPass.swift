import Foundation
import PasswrightTesting
import ZipArchive

/// A `.pkpass` the server sent, opened with the project's zip reader.
struct ServedPass {
    let archive: Data
    let reader: ZipReader
    /// `pass.json` as an object.
    let passJSON: JSON

    init(archive: Data) throws {
        self.archive = archive
        reader = try ZipReader(data: archive)
        passJSON = try JSON(parsing: reader.data(for: "pass.json"))
    }

    var authenticationToken: String? { passJSON["authenticationToken"].string }

    /// The value of a field of a style dictionary (`storeCard.primaryFields` key `points` …).
    func fieldValue(_ key: String) -> JSON {
        for style in ["storeCard", "eventTicket", "boardingPass", "coupon", "generic"] {
            for group in ["headerFields", "primaryFields", "secondaryFields", "auxiliaryFields", "backFields"] {
                if let field = passJSON[style][group].array?.first(where: { $0["key"].string == key }) { return field["value"] }
            }
        }
        return .null
    }

    /// Verifies `signature` over `manifest.json` with the real `openssl smime` against `rootCA`,
    /// after unzipping with the real `unzip`.
    func opensslVerify(rootCA: URL) async throws -> ProcessResult {
        try await withScratch { folder in
            let file = folder.appendingPathComponent("pass.pkpass")
            try archive.write(to: file)
            return try await OpenSSL.verifyPassSignature(file, rootCA: rootCA, workspace: folder)
        }
    }
}
