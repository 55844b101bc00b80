import Foundation

/// The entry names exactly as the central directory stores them, byte for byte.
///
/// libzip turns every NUL byte of a stored name into a space before anyone can see it, so a name
/// like `evil\0.png` would pass for `evil .png`. This reads the raw names (ZIP APPNOTE 4.3.12,
/// 4.3.14-16) only to find such NULs; libzip remains the parser for everything else.
enum RawEntryNames {
    /// The first stored name holding a NUL byte, decoded with the NUL kept; nil when there is none
    /// or the directory cannot be walked (libzip has already checked it by then).
    static func firstNameWithNUL(in archive: Data) -> String? {
        archive.withUnsafeBytes { bytes -> String? in
            guard let directory = centralDirectory(in: bytes) else { return nil }
            var offset = directory.offset
            for _ in 0..<directory.count {
                guard offset + 46 <= bytes.count, bytes.loadLE(UInt32.self, at: offset) == 0x0201_4b50 else { return nil }
                let nameLength = Int(bytes.loadLE(UInt16.self, at: offset + 28))
                let extraLength = Int(bytes.loadLE(UInt16.self, at: offset + 30))
                let commentLength = Int(bytes.loadLE(UInt16.self, at: offset + 32))
                guard offset + 46 + nameLength <= bytes.count else { return nil }
                let name = bytes[(offset + 46)..<(offset + 46 + nameLength)]
                if name.contains(0) { return String(decoding: name, as: UTF8.self) }
                offset += 46 + nameLength + extraLength + commentLength
            }
            return nil
        }
    }

    /// Where the central directory starts and how many records it holds, from the end-of-central-
    /// directory record (or its ZIP64 form when the classic fields are saturated).
    private static func centralDirectory(in bytes: UnsafeRawBufferPointer) -> (offset: Int, count: Int)? {
        let lowest = max(0, bytes.count - 22 - 0xFFFF)
        guard bytes.count >= 22,
              let end = stride(from: bytes.count - 22, through: lowest, by: -1)
                .first(where: { bytes.loadLE(UInt32.self, at: $0) == 0x0605_4b50 }) else { return nil }
        let count = bytes.loadLE(UInt16.self, at: end + 10)
        let offset = bytes.loadLE(UInt32.self, at: end + 16)
        if count != 0xFFFF, offset != 0xFFFF_FFFF { return (Int(offset), Int(count)) }
        // ZIP64: a 20-byte locator precedes the classic record and points at the ZIP64 record.
        guard end >= 20, bytes.count >= 56, bytes.loadLE(UInt32.self, at: end - 20) == 0x0706_4b50 else { return nil }
        let record = bytes.loadLE(UInt64.self, at: end - 12)
        guard record <= UInt64(bytes.count - 56), bytes.loadLE(UInt32.self, at: Int(record)) == 0x0606_4b50 else { return nil }
        let count64 = bytes.loadLE(UInt64.self, at: Int(record) + 32)
        let offset64 = bytes.loadLE(UInt64.self, at: Int(record) + 48)
        guard count64 <= UInt64(Int.max), offset64 <= UInt64(bytes.count) else { return nil }
        return (Int(offset64), Int(count64))
    }
}

private extension UnsafeRawBufferPointer {
    /// A little-endian integer at any (unaligned) offset; the caller has checked the bounds.
    func loadLE<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) -> T {
        T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}
