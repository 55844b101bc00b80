import Foundation

/// The fields and files of a posted HTML form (`application/x-www-form-urlencoded`, or
/// `multipart/form-data` for uploads), as the server decoded them for ``HTTPRequest/form()``.
///
/// A name sent more than once keeps its first value, as ``HTTPRequest/query(_:)`` does: a form
/// names each field once, and a second copy is more likely an injected one.
public struct HTTPForm: Sendable, Equatable {
    /// One uploaded file.
    public struct File: Sendable, Equatable {
        /// The name the browser gave, as sent (never a path to trust).
        public let fileName: String
        /// The part's media type, if the browser named one.
        public let contentType: String?
        /// The bytes.
        public let data: Data

        /// Creates a file.
        public init(fileName: String, contentType: String? = nil, data: Data) {
            self.fileName = fileName
            self.contentType = contentType
            self.data = data
        }
    }

    /// The text fields by name.
    public private(set) var fields: [String: String]
    /// The uploaded files by field name.
    public private(set) var files: [String: File]

    /// Creates a form.
    public init(fields: [String: String] = [:], files: [String: File] = [:]) {
        self.fields = fields
        self.files = files
    }

    /// The value of a text field, `nil` when the form has none of that name.
    public subscript(name: String) -> String? { fields[name] }

    /// Adds a field unless one of that name came first.
    mutating func add(field name: String, value: String) {
        if fields[name] == nil { fields[name] = value }
    }

    /// Adds a file unless one of that name came first.
    mutating func add(file name: String, _ file: File) {
        if files[name] == nil { files[name] = file }
    }
}
