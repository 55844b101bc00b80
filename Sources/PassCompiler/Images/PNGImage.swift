import Foundation

/// The facts about a PNG file that decide whether Wallet will show it: that it is a PNG at all, and its
/// pixel size (read from the IHDR chunk, without decoding the image).
public struct PNGImage: Sendable, Hashable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int

    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Reads the header of PNG bytes; `nil` when the bytes are not a PNG with a valid IHDR chunk.
    ///
    /// Wallet silently drops images it cannot decode, so a file named `.png` that is really a JPEG is
    /// worth an error before signing rather than a blank pass on a phone.
    public init?(bytes: Data) {
        // Signature (8) + IHDR length (4) + "IHDR" (4) + width (4) + height (4).
        guard bytes.count >= 24 else { return nil }
        let start = bytes.startIndex
        guard bytes[start..<start + 8].elementsEqual(Self.signature),
              bytes[start + 12..<start + 16].elementsEqual(Array("IHDR".utf8)) else { return nil }
        func bigEndian(at offset: Int) -> Int {
            bytes[start + offset..<start + offset + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        let width = bigEndian(at: 16), height = bigEndian(at: 20)
        guard width > 0, height > 0 else { return nil }
        self.width = width
        self.height = height
    }
}
