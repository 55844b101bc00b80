import WalletCore

extension TemplateFinding {
    /// `pass.json foregroundColor: message (now: …; fix: …)`, without the parts the finding lacks:
    /// how `templates push` and `sync` print a warning or a refusal's error.
    var line: String {
        let place = [file, path].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        let context = [now.map { "now: \($0)" }, fix.map { "fix: \($0)" }].compactMap { $0 }.filter { $0.count > 5 }
        return (place.isEmpty ? "" : "\(place): ") + message + (context.isEmpty ? "" : " (\(context.joined(separator: "; ")))")
    }
}
