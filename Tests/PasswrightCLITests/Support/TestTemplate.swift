import Foundation

/// A small store-card template written into a test's scratch folder: `pass.json` with placeholders
/// for `member.name` and `points`, and real PNG icons.
enum TestTemplate {
    /// The columns a record needs, in CSV header order.
    static let columns = ["serialNumber", "member.name", "points"]

    /// Writes the template folder `<parent>/<name>/` and returns it.
    static func write(in parent: URL, name: String = "card",
                      passTypeIdentifier: String = DevIdentities.passTypeIdentifier,
                      backgroundColor: String = "rgb(20, 40, 60)") throws -> URL {
        let folder = parent.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let passJSON = """
        {
          "formatVersion": 1,
          "passTypeIdentifier": "\(passTypeIdentifier)",
          "teamIdentifier": "\(DevIdentities.teamIdentifier)",
          "organizationName": "Passwright CLI Tests",
          "description": "Membership card for CLI tests",
          "backgroundColor": "\(backgroundColor)",
          "foregroundColor": "rgb(255, 255, 255)",
          "labelColor": "rgb(200, 210, 220)",
          "barcodes": [{"format": "PKBarcodeFormatQR", "message": "{{serialNumber}}", "messageEncoding": "iso-8859-1"}],
          "storeCard": {
            "primaryFields": [{"key": "name", "label": "Member", "value": "{{member.name}}"}],
            "secondaryFields": [{"key": "points", "label": "Points", "value": "{{points}}"}]
          }
        }
        """
        try Data(passJSON.utf8).write(to: folder.appendingPathComponent("pass.json"))
        try PNG.solid(width: 29, height: 29).write(to: folder.appendingPathComponent("icon.png"))
        try PNG.solid(width: 58, height: 58).write(to: folder.appendingPathComponent("icon@2x.png"))
        return folder
    }

    /// A JSON record for the template.
    static func record(serial: String, name: String = "Jane Appleseed", points: Int = 1200) -> Data {
        let object: [String: Any] = ["serialNumber": serial, "member": ["name": name], "points": String(points)]
        return try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    /// A CSV row for the template (no quoting needed for the values the tests use).
    static func csvRow(serial: String, name: String, points: Int) -> String {
        "\(serial),\(name),\(points)"
    }
}

/// A minimal but real PNG (8-bit grey, zlib stored blocks), so the template's icons are images
/// any decoder accepts, not just bytes with a PNG header.
enum PNG {
    static func solid(width: Int, height: Int, grey: UInt8 = 0x80) -> Data {
        var raw: [UInt8] = []
        for _ in 0..<height { raw.append(0); raw += Array(repeating: grey, count: width) }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", bigEndian(width) + bigEndian(height) + [8, 0, 0, 0, 0])
        png += chunk("IDAT", zlibStored(raw))
        png += chunk("IEND", [])
        return Data(png)
    }

    private static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return bigEndian(body.count) + typed + bigEndian(Int(crc32(typed)))
    }

    private static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65_535, bytes.count - offset)
            let final: UInt8 = offset + length == bytes.count ? 1 : 0
            out += [final, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            out += bytes[offset..<offset + length]
            offset += length
        } while offset < bytes.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
        return out + bigEndian(Int(b << 16 | a))
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func bigEndian(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
