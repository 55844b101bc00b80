import Foundation
import Locking
import Signing

/// Files the fuzz targets need around them: the repository's sample templates and development
/// signing identities made once per process in a scratch folder.
public enum Fixtures {
    /// The repository root (this file is `Fuzz/Sources/FuzzSupport/Fixtures.swift`).
    public static let repository: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The sample templates, one per pass style.
    public static var templates: URL { repository.appendingPathComponent("Templates", isDirectory: true) }

    /// The team identifier of the sample templates.
    public static let teamIdentifier = "PASSWRIGHT"

    /// A fresh folder under the system temporary directory, removed when the process exits normally.
    public static func scratchFolder(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("passwright-fuzz-\(name)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        scratch.withLock { $0.append(folder) }
        atexit { Fixtures.removeScratch() }
        return folder
    }

    /// Development identities (root, WWDR stand-in, signer) for each pass type in `folder`, in the
    /// layout `passwright serve --identities` reads.
    @discardableResult
    public static func devIdentities(in folder: URL, passTypeIdentifiers: [String]) throws -> [String: DevIdentityFiles] {
        var files: [String: DevIdentityFiles] = [:]
        for passType in passTypeIdentifiers {
            files[passType] = try DevCertificates.create(in: folder, passTypeIdentifier: passType, teamIdentifier: teamIdentifier, now: Date())
        }
        return files
    }

    /// A development Order Type ID identity for `orderTypeIdentifier` in `folder`, under the same root.
    @discardableResult
    public static func devOrderIdentity(in folder: URL, orderTypeIdentifier: String) throws -> DevIdentityFiles {
        try DevCertificates.create(in: folder, typeIdentifier: orderTypeIdentifier, kind: .order, teamIdentifier: teamIdentifier, now: Date())
    }

    private static let scratch = Locked<[URL]>([])

    private static func removeScratch() {
        for folder in scratch.withLock({ $0 }) { try? FileManager.default.removeItem(at: folder) }
    }
}
