import Foundation
import Locking

/// Valid solid-colour PNGs of any size, made at test time, so templates can carry icons and images of
/// exact pixel sizes (including wrong ones) without fixture files.
///
/// Foundation has no zlib on Linux, so the image data is a zlib stream of "stored" (uncompressed)
/// deflate blocks, with its Adler-32 and every chunk's CRC-32 computed here.
public enum TestPNG {
    /// Images by size: many tests write the same slots, and a poster background is megabytes.
    private static let cache = Locked<[[Int]: Data]>([:])

    /// An 8-bit grey image (mid grey), cached by size.
    public static func make(width: Int, height: Int) -> Data {
        if let cached = cache.withLock({ $0[[width, height]] }) { return cached }
        let png = encode(width: width, height: height, colourType: 0, pixel: [0x80])
        cache.withLock { $0[[width, height]] = png }
        return png
    }

    /// An 8-bit truecolour image of one colour.
    public static func solid(width: Int, height: Int, rgb: (UInt8, UInt8, UInt8) = (40, 90, 160)) -> Data {
        encode(width: width, height: height, colourType: 2, pixel: [rgb.0, rgb.1, rgb.2])
    }

    /// An 8-bit RGBA image: a blue square in the middle third, fully transparent around it, so a
    /// test can tell whether transparency survived a conversion.
    public static func transparent(width: Int, height: Int) -> Data {
        var rows: [[UInt8]] = []
        for y in 0..<height {
            var row: [UInt8] = []
            for x in 0..<width {
                let inside = x >= width / 3 && x < 2 * width / 3 && y >= height / 3 && y < 2 * height / 3
                row += inside ? [40, 90, 160, 255] : [0, 0, 0, 0]
            }
            rows.append(row)
        }
        return encode(width: width, height: height, colourType: 6, rows: rows)
    }

    /// `colourType` 0 is grey (one byte a pixel), 2 truecolour (three), 6 truecolour with alpha (four).
    private static func encode(width: Int, height: Int, colourType: UInt8, pixel: [UInt8]) -> Data {
        let row = Array([[UInt8]](repeating: pixel, count: width).joined())
        return encode(width: width, height: height, colourType: colourType, rows: [[UInt8]](repeating: row, count: height))
    }

    private static func encode(width: Int, height: Int, colourType: UInt8, rows: [[UInt8]]) -> Data {
        var raw: [UInt8] = []
        raw.reserveCapacity(rows.reduce(0) { $0 + 1 + $1.count })
        for row in rows {
            raw.append(0) // filter: none
            raw += row
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        // 8-bit depth, the colour type, deflate, adaptive filtering, no interlace.
        png += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, colourType, 0, 0, 0])
        png += chunk("IDAT", zlibStored(raw))
        png += chunk("IEND", [])
        return Data(png)
    }

    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65_535, data.count - offset)
            let final: UInt8 = offset + length == data.count ? 1 : 0
            out.append(final)
            out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            out += data[offset..<(offset + length)]
            offset += length
        } while offset < data.count
        return out + bigEndian(adler32(data))
    }

    private static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return bigEndian(UInt32(body.count)) + typed + bigEndian(crc32(typed))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        // 5552 bytes is the most that can be summed before the modulo must be taken (zlib's NMAX).
        var index = 0
        while index < data.count {
            let end = min(index + 5552, data.count)
            while index < end {
                a &+= UInt32(data[index])
                b &+= a
                index += 1
            }
            a %= 65_521
            b %= 65_521
        }
        return b << 16 | a
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        return crc
    }

    private static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }
}
