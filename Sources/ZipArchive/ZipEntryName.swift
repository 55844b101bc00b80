/// The rules an entry name must keep, shared by the writer and the reader.
///
/// A name is a relative `/`-separated path that cannot climb out of the folder it is extracted
/// into: Wallet archives hold root files and `<lang>.lproj/` folders only (wallet-spec §1.1).
enum ZipEntryName {
    /// Throws `ZipError.invalidEntryName` unless `name` is a safe relative path.
    ///
    /// `allowsDirectoryMarker` accepts one trailing `/` (a directory entry written by other tools);
    /// the writer only writes files, so it passes `false`.
    static func validate(_ name: String, allowsDirectoryMarker: Bool) throws(ZipError) {
        func reject(_ reason: String) -> ZipError { .invalidEntryName(name: name, reason: reason) }
        if name.isEmpty { throw reject("the name is empty") }
        if name.utf8.contains(0) { throw reject("it contains a NUL character") }
        if name.contains("\\") { throw reject("it contains a backslash; use / between folders") }
        if name.hasPrefix("/") { throw reject("it is an absolute path") }
        var components = name.split(separator: "/", omittingEmptySubsequences: false)
        if allowsDirectoryMarker, components.count > 1, components.last == "" { components.removeLast() }
        for component in components {
            if component == ".." { throw reject("it has a '..' component") }
            if component == "." { throw reject("it has a '.' component") }
            if component.isEmpty { throw reject("it has an empty path component") }
        }
    }
}
