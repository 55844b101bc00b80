/// The arguments of one subcommand, checked against its `CommandSpec`.
struct ParsedArguments: Sendable {
    private(set) var positionals: [String] = []
    private var values: [String: String] = [:]
    private var flags: Set<String> = []
    /// `--help` or `-h` was given.
    private(set) var wantsHelp = false

    /// Parses `arguments` (without the command path) against `spec`.
    init(_ arguments: [String], spec: CommandSpec) throws(UsageError) {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            if argument == "--help" || argument == "-h" {
                wantsHelp = true
                continue
            }
            var name: String
            var inlineValue: String?
            if argument.hasPrefix("--") {
                name = String(argument.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
            } else {
                guard argument.count == 2, let option = spec.options.first(where: { $0.short == argument.last }) else {
                    throw UsageError("unknown option '\(argument)'")
                }
                name = option.name
            }
            guard let option = spec.options.first(where: { $0.name == name }) else {
                throw UsageError("unknown option '--\(name)'")
            }
            if option.valueName == nil {
                guard inlineValue == nil else { throw UsageError("--\(name) takes no value") }
                flags.insert(name)
            } else if let inlineValue {
                values[name] = inlineValue
            } else {
                guard index < arguments.count else {
                    throw UsageError("--\(name) needs a value <\(option.valueName ?? "value")>")
                }
                values[name] = arguments[index]
                index += 1
            }
        }
        guard !wantsHelp else { return }
        let required = spec.arguments.filter { !$0.optional }.count
        if positionals.count < required {
            throw UsageError("missing argument \(spec.arguments[positionals.count].name)")
        }
        if positionals.count > spec.arguments.count {
            throw UsageError("unexpected argument '\(positionals[spec.arguments.count])'")
        }
    }

    /// The value of `--name`, if given.
    func value(_ name: String) -> String? { values[name] }

    /// Whether `--name` was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The positional at `index`, if given.
    func positional(_ index: Int) -> String? { index < positionals.count ? positionals[index] : nil }

    /// The value of `--name` as a whole number in `range`.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError("--\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return number
    }
}

/// A command line that does not match the command's spec: exit status 64 (EX_USAGE) with the usage.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}
