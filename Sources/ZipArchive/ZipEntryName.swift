/// The rules an entry name must keep, shared by the writer and the reader.
///
/// A name is a relative `/`-separated path that cannot climb out of the folder it is extracted
/// into: Wallet archives hold root files and `<lang>.lproj/` folders only (Apple's PassKit Package Format Reference).
/// Checked on UTF-8 bytes: it runs for every entry of every archive on the batch hot path.
enum ZipEntryName {
    /// Throws `ZipError.invalidEntryName` unless `name` is a safe relative path.
    ///
    /// `allowsDirectoryMarker` accepts one trailing `/` (a directory entry written by other tools);
    /// the writer only writes files, so it passes `false`.
    static func validate(_ name: String, allowsDirectoryMarker: Bool) throws(ZipError) {
        func reject(_ reason: String) -> ZipError { .invalidEntryName(name: name, reason: reason) }
        let bytes = name.utf8
        if bytes.isEmpty { throw reject("the name is empty") }
        if bytes.contains(0) { throw reject("it contains a NUL character") }
        if bytes.contains(UInt8(ascii: "\\")) { throw reject("it contains a backslash; use / between folders") }
        if bytes.first == UInt8(ascii: "/") { throw reject("it is an absolute path") }
        var components = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        if allowsDirectoryMarker, components.count > 1, components.last?.isEmpty == true { components.removeLast() }
        for component in components {
            if component.elementsEqual("..".utf8) { throw reject("it has a '..' component") }
            if component.elementsEqual(".".utf8) { throw reject("it has a '.' component") }
            if component.isEmpty { throw reject("it has an empty path component") }
        }
    }
}
