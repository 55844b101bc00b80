import WalletCore

extension CivilDay {
    /// A short label for a chart's time axis, `1 Dec`: the year is in the range the page states.
    var shortLabel: String {
        let (_, month, day) = components
        return "\(day) \(Self.monthNames[month - 1])"
    }

    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
