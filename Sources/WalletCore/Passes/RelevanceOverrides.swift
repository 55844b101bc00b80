import PassModel

/// The `pass.json` keys an issuer may set per pass, over the template: where and when the pass shows
/// on the lock screen, and when it expires. They are validated like the template's own values.
public enum RelevanceOverrides {
    public static let keys: Set<String> = ["locations", "beacons", "maxDistance", "relevantDate", "relevantDates", "expirationDate"]

    /// Picks the override keys out of a request body; everything else is left to the caller.
    public static func extract(from body: JSONObject) -> JSONObject {
        JSONObject(body.entries.filter { keys.contains($0.key) })
    }
}
