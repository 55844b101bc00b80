import PassModel

/// Everything that can go wrong while reading a master image or making a slot's images.
public enum ImageProcessingError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The bytes are not an image in a format `passwright images` takes.
    case unsupportedFormat(source: String, found: String?)
    /// libvips recognised the format but could not read the image.
    case unreadable(source: String, details: String)
    /// No such image slot.
    case unknownSlot(String)
    /// The style never draws this slot, so the images would only make the pass bigger.
    case slotNotShown(slot: String, style: String, shown: [String])
    /// A libvips operation failed; its own error text is carried.
    case processing(operation: String, details: String)

    public var description: String {
        switch self {
        case let .unsupportedFormat(source, found):
            return "\(source) is \(found.map { "a \($0) image" } ?? "not an image libvips recognises"); use a PNG, JPEG, WebP or SVG master"
        case let .unreadable(source, details):
            return "\(source) cannot be read as an image (libvips: \(details))"
        case let .unknownSlot(slot):
            return "'\(slot)' is not an image slot; slots are \(ImageSpec.slots.joined(separator: ", "))"
        case let .slotNotShown(slot, style, shown):
            return "a \(style) pass never draws a \(slot) image; it shows \(shown.joined(separator: ", "))"
        case let .processing(operation, details):
            return "Image processing failed at \(operation) (libvips: \(details))"
        }
    }
}
