extension TestService {
    /// The unlabelled samples of `/metrics` (Prometheus text), by name.
    func metrics() async throws -> [String: Double] {
        let text = try await client.send("GET", "/metrics").text
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.contains("{") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let value = Double(parts[1]) { samples[String(parts[0])] = value }
        }
        return samples
    }

    /// One unlabelled counter or gauge of `/metrics`, as a whole number; throws if it is missing.
    func metric(_ name: String) async throws -> Int {
        Int(try (try await metrics()[name]).orThrow("no \(name) in /metrics"))
    }
}
