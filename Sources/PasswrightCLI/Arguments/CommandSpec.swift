/// What a subcommand accepts, written once and used both to parse arguments and to print `--help`,
/// so the help can never drift from what is parsed.
struct CommandSpec: Sendable {
    /// A `--name value` option or a `--flag`.
    struct Option: Sendable {
        let name: String
        let short: Character?
        let valueName: String?
        let help: String

        /// An option that takes a value, e.g. `--out FILE`.
        static func value(_ name: String, short: Character? = nil, _ valueName: String, help: String) -> Option {
            Option(name: name, short: short, valueName: valueName, help: help)
        }

        /// A boolean flag, e.g. `--strict`.
        static func flag(_ name: String, short: Character? = nil, help: String) -> Option {
            Option(name: name, short: short, valueName: nil, help: help)
        }
    }

    /// A positional argument.
    struct Argument: Sendable {
        let name: String
        let help: String
        var optional = false
    }

    let name: String
    let abstract: String
    var discussion: String = ""
    var arguments: [Argument] = []
    var options: [Option] = []

    /// The `--help` text.
    func help(commandPath: String) -> String {
        let positional = arguments.map { $0.optional ? "[\($0.name)]" : $0.name }.joined(separator: " ")
        var text = "OVERVIEW: \(abstract)\n\nUSAGE: \(commandPath)"
        if !options.isEmpty { text += " [options]" }
        if !positional.isEmpty { text += " \(positional)" }
        text += "\n"
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        if !arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for argument in arguments { text += Self.row(argument.name, argument.help) }
        }
        text += "\nOPTIONS:\n"
        for option in options {
            var left = option.short.map { "-\($0), " } ?? ""
            left += "--\(option.name)"
            if let valueName = option.valueName { left += " <\(valueName)>" }
            text += Self.row(left, option.help)
        }
        text += Self.row("-h, --help", "Show help information.")
        return text
    }

    private static func row(_ left: String, _ right: String) -> String {
        let padded = left.count < 26 ? left + String(repeating: " ", count: 26 - left.count) : left + "\n" + String(repeating: " ", count: 28)
        return "  \(padded)\(right)\n"
    }
}
