import Foundation
import ZipArchive

extension TemplateSourceFile {
    /// The files as a zip archive laid out as the folder is (root files, `<language>.lproj/` files):
    /// how a template is uploaded (`passwright templates push`) and downloaded (a stored version).
    public static func archive(_ files: [TemplateSourceFile]) throws(ZipError) -> Data {
        var writer = ZipWriter()
        for file in files { try writer.add(path: file.path, data: file.bytes, compression: .deflate) }
        return try writer.finish()
    }
}
