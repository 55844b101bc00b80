import Foundation
import PassCompiler
import PasswrightTesting
import Testing

/// Output files appear whole or not at all, keep or replace what is there as asked, and leave no
/// temporary file behind.
@Suite struct AtomicFileTests {
    @Test func keepRefusesAnExistingFileAndLeavesItUntouched() throws {
        try withTemporaryDirectory { folder in
            let path = folder.path + "/pass.pkpass"
            try AtomicFile.write(Data("first".utf8), toPath: path, existing: .keep, durable: false)
            #expect {
                try AtomicFile.write(Data("second".utf8), toPath: path, existing: .keep)
            } throws: { error in
                guard case .outputExists(let existing) = error as? PassCompilerError else { return false }
                return existing == path
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("first".utf8))
            try AtomicFile.write(Data("third".utf8), toPath: path, existing: .replace)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("third".utf8))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["pass.pkpass"], "no temporary file is left")
        }
    }

    @Test(arguments: [AtomicFile.Existing.keep, .replace])
    func missingFoldersAreMadeAndFilesAreReadable(existing: AtomicFile.Existing) throws {
        try withTemporaryDirectory { folder in
            let bytes = Data((0..<200_000).map { _ in UInt8.random(in: 0...255) })
            let path = folder.path + "/a/b/pass.pkpass"
            try AtomicFile.write(bytes, toPath: path, existing: existing)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
            let mode = try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
            #expect(mode & 0o777 == 0o644 & ~Int(Self.umask))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/a/b") == ["pass.pkpass"])
        }
    }

    @Test func aFileWhereTheFolderShouldBeIsAnErrorNamingThePath() throws {
        try withTemporaryDirectory { folder in
            try Data("not a folder".utf8).write(to: folder.appendingPathComponent("plain"))
            let path = folder.path + "/plain/pass.pkpass"
            #expect {
                try AtomicFile.write(Data("x".utf8), toPath: path, existing: .keep)
            } throws: { error in
                guard case .output(let failed, _) = error as? PassCompilerError else { return false }
                return failed == path
            }
        }
    }

    private static let umask: mode_t = {
        let current = Foundation.umask(0)
        Foundation.umask(current)
        return current
    }()
}
