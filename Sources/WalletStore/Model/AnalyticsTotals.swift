/// Passes on at least one device and device registrations now, per template (Prometheus gauges).
public struct AnalyticsTotals: Sendable, Equatable {
    /// `installed − removed` of all time, by template.
    public let activePasses: [String: Int]
    /// `devicesAdded − devicesRemoved` of all time, by template.
    public let devices: [String: Int]

    public init(activePasses: [String: Int], devices: [String: Int]) {
        self.activePasses = activePasses
        self.devices = devices
    }
}
