import HTTPServer
import PassModel
import WalletCore

extension Readiness {
    /// The answer.
    var response: HTTPResponse {
        let unavailable = templates.compactMapValues { $0 }
        let usable = templates.count - unavailable.count
        var problems: [String] = []
        if let storage {
            problems.append(storage.kind == .full ? "the database is full: \(storage.reason)" : "the database is unavailable: \(storage.reason)")
        } else if !databaseAnswers {
            problems.append("the database does not answer")
        }
        if usable == 0 {
            problems.append(templates.isEmpty ? "no template is installed" : "no template can issue passes")
        }
        let members: [String: JSONValue] = [
            "database": .string(databaseState),
            "templatesReady": .number(Double(usable)),
            "unavailableTemplates": Self.object(unavailable),
            "stoppedPushIdentities": Self.object(stoppedPushIdentities),
            "identitiesNeedingRenewal": Self.object(identitiesNeedingRenewal),
            "disabledWebhooks": Self.object(disabledWebhooks),
        ]
        guard problems.isEmpty else {
            let reasons = unavailable.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
            let detail = problems.joined(separator: "; ") + (reasons.isEmpty ? "" : " (" + reasons.joined(separator: "; ") + ")")
            return HTTPResponse.problem(status: .serviceUnavailable, detail: detail)
                .with(extra: members.merging(["status": .string("unavailable")]) { $1 })
        }
        var body = members
        body["status"] = .string(stoppedPushIdentities.isEmpty && unavailable.isEmpty && identitiesNeedingRenewal.isEmpty && disabledWebhooks.isEmpty
            ? "ready" : "degraded")
        return .json(JSONValue.object(JSONObject(body.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) })).serialized(sortedKeys: true))
    }

    /// `ok`, `unavailable` or `full`.
    private var databaseState: String {
        switch storage?.kind {
        case .full: "full"
        case .unavailable: "unavailable"
        case nil: databaseAnswers ? "ok" : "unavailable"
        }
    }

    private static func object(_ values: [String: String]) -> JSONValue {
        .object(JSONObject(values.sorted { $0.key < $1.key }.map { (key: $0.key, value: JSONValue.string($0.value)) }))
    }
}
