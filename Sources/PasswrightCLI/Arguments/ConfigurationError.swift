/// A command line that parses but cannot run as configured (a required environment variable is
/// unset): exit 1, since 64 is kept for a command line that does not parse.
struct ConfigurationError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
