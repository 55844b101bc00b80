import OrderModel
import PassModel
import WalletPackage

/// The rules an order's files must meet before packaging, as validation issues so that one build
/// reports every problem: each file at the root or in a `<lang>.lproj/` folder and not junk, none
/// named like a file the package makes, and every file `order.json` names present.
public enum OrderFileRules {
    /// The rule of a file `order.json` names but the package lacks.
    static let missingFileRule = "order.file"
    /// The rule of a file Wallet does not take where it is.
    static let packageFileRule = "order.package"

    /// The problems with `paths` (inside the package) for `order`.
    public static func issues(for order: Order, paths: Set<String>) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        for path in paths.sorted() {
            let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            let problem: String?
            if parts.contains(where: DocumentFolder.isJunk) {
                problem = "is system or editor litter that must not be packaged"
            } else if parts.count > 2 || (parts.count == 2 && !DocumentFolder.isLocalizationFolder(parts[0])) {
                problem = "is in a folder; only files at the root and in <lang>.lproj/ are packaged"
            } else if path == WalletDocumentKind.order.payloadFile || WalletDocumentKind.signatureFiles.contains(path) {
                problem = "is made by the build and cannot be given as a file"
            } else {
                problem = nil
            }
            if let problem {
                issues.append(ValidationIssue(severity: .error, path: path, rule: packageFileRule, message: "\(path) \(problem)"))
            }
        }
        let languages = Set(paths.compactMap { path -> String? in
            let parts = path.split(separator: "/")
            return parts.count == 2 ? String(parts[0]) : nil
        })
        for (jsonPath, file) in order.referencedFiles where !isPresent(file, in: paths, languages: languages) {
            issues.append(ValidationIssue(severity: .error, path: jsonPath, rule: missingFileRule,
                                          message: "names \(file.path), which is not in the order's files"))
        }
        return issues
    }

    /// Whether `file` is in the package: as named, or as its `@2x`/`@3x` variants (Apple's text has
    /// `logo` name `logo@2x.png` and `logo@3x.png`), at the root or in any `.lproj` folder.
    private static func isPresent(_ file: BundleFilePath, in paths: Set<String>, languages: Set<String>) -> Bool {
        let name = file.path
        var candidates = [name]
        let ext = file.fileExtension
        let stem = ext.isEmpty ? name : String(name.dropLast(ext.count + 1))
        let extensions = ext.isEmpty ? ["png"] : [String(name.suffix(ext.count))]
        for suffix in extensions {
            candidates += ["\(stem).\(suffix)", "\(stem)@2x.\(suffix)", "\(stem)@3x.\(suffix)"]
        }
        return candidates.contains { candidate in
            paths.contains(candidate) || languages.contains { paths.contains("\($0)/\(candidate)") }
        }
    }
}
