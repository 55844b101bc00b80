import Foundation

/// Reads a file (or standard input) in fixed-size chunks so batch inputs of any size take constant memory.
struct ByteReader {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var position = 0
    private var finished = false
    /// Bytes handed out so far; drives progress bars.
    private(set) var bytesConsumed = 0
    private let chunkSize: Int

    init(handle: FileHandle, chunkSize: Int = 1 << 16) {
        self.handle = handle
        self.chunkSize = chunkSize
    }

    /// The next byte, or `nil` at the end of the input.
    mutating func next() throws -> UInt8? {
        if position == buffer.count {
            guard !finished else { return nil }
            guard let chunk = try handle.read(upToCount: chunkSize), !chunk.isEmpty else {
                finished = true
                return nil
            }
            buffer = Array(chunk)
            position = 0
        }
        let byte = buffer[position]
        position += 1
        bytesConsumed += 1
        return byte
    }

    /// Looks at the next byte without consuming it.
    mutating func peek() throws -> UInt8? {
        guard let byte = try next() else { return nil }
        position -= 1
        bytesConsumed -= 1
        return byte
    }
}
