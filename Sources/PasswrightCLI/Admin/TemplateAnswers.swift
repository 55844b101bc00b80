/// What `PUT /api/v1/templates/{name}` and `POST …/rollback` answer when a version is stored or
/// found equal to the current one.
struct TemplateUpload: Decodable, Sendable {
    let name: String
    let version: Int
    let digest: String
    /// `false` when the files equal the current version: nothing was stored.
    let changed: Bool
    /// The passes the new version is rolled out to (0 when unchanged).
    let passesAffected: Int
    /// Design warnings and advice, and files the server left out.
    let warnings: [TemplateFinding]
}

/// One lint finding as the admin API reports it: file and JSON path apart, for pointing at.
struct TemplateFinding: Decodable, Sendable {
    let rule: String?
    let severity: String?
    let file: String?
    let path: String?
    /// What the finding does to the pass (the holder's view).
    let message: String
    /// What the template has now, and what would fix it.
    let now: String?
    let fix: String?

    /// `pass.json foregroundColor: message (now: …; fix: …)`, without the parts the finding lacks.
    var line: String {
        let place = [file, path].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        let context = [now.map { "now: \($0)" }, fix.map { "fix: \($0)" }].compactMap { $0 }.filter { $0.count > 5 }
        return (place.isEmpty ? "" : "\(place): ") + message + (context.isEmpty ? "" : " (\(context.joined(separator: "; ")))")
    }
}

/// `GET /api/v1/templates`.
struct TemplateList: Decodable, Sendable {
    struct Entry: Decodable, Sendable {
        let name: String
        let status: String
        let version: Int?
        let passTypeIdentifier: String?
        let reason: String?
    }

    let templates: [Entry]
}

/// `GET /api/v1/templates/{name}`: the current version, the roll-out and the history.
struct TemplateDetails: Decodable, Sendable {
    struct Version: Decodable, Sendable {
        let version: Int
        let digest: String
        let uploadedBy: String
        let uploadedAt: String
        let restores: Int?
    }

    let name: String
    let currentVersion: Int
    let passes: Int
    let passesBehind: Int
    let status: String
    let reason: String?
    let versions: [Version]
}
