import Foundation
import PasswrightTesting
import Testing

/// `--help`, `--version` and usage errors: what scripts and people rely on before anything is built.
@Suite("Help and usage")
struct HelpAndUsageTests {
    /// Every command path and the options its help must list.
    static let commands: [(path: [String], options: [String])] = [
        (["build"], ["--data", "--out", "--identities", "--web-service-url", "--help"]),
        (["batch"], ["--input", "--format", "--out-dir", "--jobs", "-j", "--bundle", "--overwrite", "--identities", "--web-service-url", "--help"]),
        (["verify"], ["--ca", "--help"]),
        (["certs"], ["--help"]),
        (["certs", "dev"], ["--out", "--pass-type-id", "--order-type-id", "--team-id", "--help"]),
        (["certs", "inspect"], ["--identities", "--help"]),
        (["bench"], ["--identities", "--pass-type-id", "--seconds", "--help"]),
        (["push"], ["--server", "--help"]),
        (["templates"], ["--help"]),
        (["templates", "push"], ["--name", "--server", "--help"]),
        (["templates", "sync"], ["--server", "--help"]),
        (["templates", "list"], ["--orders", "--json", "--server", "--help"]),
        (["templates", "versions"], ["--order", "--json", "--server", "--help"]),
        (["keys"], ["--help"]),
        (["keys", "create"], ["--scopes", "--templates", "--expires", "--server", "--help"]),
        (["holders"], ["--help"]),
        (["holders", "export"], ["--field", "--value", "--template", "--orders", "--server", "--help"]),
        (["holders", "erase"], ["--field", "--value", "--template", "--orders", "--yes", "--server", "--help"]),
    ]

    @Test("the README's command list names every option each command's --help lists")
    func readmeListsEveryOption() async throws {
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "## Command line"))
        let end = try #require(readme.range(of: "```\n\n", range: start.upperBound..<readme.endIndex))
        let synopsis = readme[start.upperBound..<end.lowerBound]
        for path in [["build"], ["batch"], ["verify"], ["lint"], ["certs", "dev"], ["certs", "inspect"], ["serve"], ["push"], ["healthcheck"], ["bench"], ["keys", "create"], ["holders", "export"], ["holders", "erase"]] {
            let help = try await CLI.run(path + ["--help"]).out
            let options = help.split(separator: "\n").compactMap { line -> String? in
                let words = line.split(separator: " ")
                guard line.hasPrefix("  -"), let option = words.first(where: { $0.hasPrefix("--") }), option != "--help" else { return nil }
                return String(option.trimmingCharacters(in: CharacterSet(charactersIn: ",")))
            }
            #expect(!options.isEmpty || path == ["certs", "dev"] || path.count == 1, "\(path)")
            let lines = synopsis.split(separator: "\n")
            let first = try #require(lines.firstIndex { $0.hasPrefix("passwright \(path.joined(separator: " "))") }, "README lacks \(path)")
            // A command's synopsis is its line and the indented lines that continue it.
            var text = String(lines[first])
            for line in lines[(first + 1)...] {
                guard line.hasPrefix(" ") else { break }
                text += String(line)
            }
            for option in options {
                #expect(text.contains(option), "README's synopsis of \(path) lacks \(option)")
            }
        }
    }

    @Test("the README names every script and benchmark a user can run")
    func readmeNamesEveryScript() throws {
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
        for folder in ["scripts", "Benchmarks"] {
            let files = try FileManager.default.contentsOfDirectory(atPath: Repository.root.appendingPathComponent(folder).path)
            let scripts = files.filter { $0.hasSuffix(".sh") }
            #expect(!scripts.isEmpty, "\(folder)")
            for script in scripts {
                #expect(readme.contains("\(folder)/\(script)"), "README does not name \(folder)/\(script)")
            }
        }
    }

    @Test("healthcheck exits 1 when nothing answers, 0 when a server answers 200")
    func healthcheck() async throws {
        let nothing = try await CLI.run(["healthcheck", "--url", "http://127.0.0.1:1/healthz", "--timeout", "2"])
        #expect(nothing.status == 1, "\(nothing)")
        #expect(nothing.err.hasPrefix("Error: "))
        let bad = try await CLI.run(["healthcheck", "--url", "ftp://x"])
        #expect(bad.status == 64, "\(bad)")
    }

    @Test("push without PASSWRIGHT_ADMIN_TOKEN exits 1: the command line parsed, the configuration is missing")
    func pushWithoutTokenExitsOne() async throws {
        let result = try await CLI.run(["push", "stats"])
        #expect(result.status == 1, "\(result)")
        #expect(result.err.contains("PASSWRIGHT_ADMIN_TOKEN"))
    }

    @Test("top-level --help lists every command")
    func topLevelHelp() async throws {
        for flag in ["--help", "-h", "help"] {
            let result = try await CLI.run([flag])
            #expect(result.status == 0, "\(result)")
            #expect(result.out.contains("USAGE: passwright <command>"))
            for command in ["build", "batch", "verify", "certs", "push", "templates", "bench"] {
                #expect(result.out.contains("\n  \(command) "), "top-level help lacks \(command)")
            }
            #expect(result.out.contains("--version"))
        }
    }

    @Test("each command's --help shows its usage and every option", arguments: commands.map(\.path))
    func commandHelp(path: [String]) async throws {
        let options = try #require(Self.commands.first { $0.path == path }?.options)
        let result = try await CLI.run(path + ["--help"])
        #expect(result.status == 0, "\(result)")
        #expect(result.err.isEmpty)
        #expect(result.out.contains("USAGE: passwright \(path.joined(separator: " "))"), "\(result)")
        for option in options {
            #expect(result.out.contains(option), "help of \(path) lacks \(option)")
        }
        if path == ["certs"] {
            #expect(result.out.contains("dev") && result.out.contains("inspect"))
        }
        if path == ["templates"] {
            for subcommand in ["push DIR", "sync DIR", "list", "versions NAME"] { #expect(result.out.contains(subcommand)) }
        }
    }

    @Test("--version prints a semantic version")
    func version() async throws {
        let result = try await CLI.run(["--version"])
        #expect(result.status == 0)
        let line = result.out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(line.wholeMatch(of: /\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?/) != nil, "not semver: \(line)")
    }

    /// Command lines that are wrong before any work starts, and what the error must name.
    static let usageErrors: [(arguments: [String], mentions: String, usage: String)] = [
        (["frobnicate"], "unknown command 'frobnicate'", "USAGE: passwright <command>"),
        (["build", "card", "--data", "r.json", "--nope"], "unknown option '--nope'", "USAGE: passwright build"),
        (["build", "card", "-z"], "unknown option '-z'", "USAGE: passwright build"),
        (["build", "card"], "missing --data", "USAGE: passwright build"),
        (["build", "card", "--data"], "--data needs a value", "USAGE: passwright build"),
        (["verify"], "missing argument FILE", "USAGE: passwright verify"),
        (["verify", "a.pkpass", "b.pkpass"], "unexpected argument 'b.pkpass'", "USAGE: passwright verify"),
        (["batch", "card", "--out-dir", "out"], "missing --input", "USAGE: passwright batch"),
        (["batch", "card", "--input", "r.csv", "--out-dir", "out", "--jobs", "0"], "--jobs takes a whole number from 1", "USAGE: passwright batch"),
        (["batch", "card", "--input", "r.csv", "--out-dir", "out", "--bundle", "11"], "--bundle takes a whole number from 2 to 10", "USAGE: passwright batch"),
        (["batch", "card", "--input", "r.txt", "--out-dir", "out"], "cannot tell the format", "USAGE: passwright batch"),
        (["batch", "card", "--input", "r.csv", "--out-dir", "out", "--overwrite=yes"], "--overwrite takes no value", "USAGE: passwright batch"),
        (["certs"], "missing argument SUBCOMMAND", "USAGE: passwright certs"),
        (["certs", "bogus"], "unknown subcommand 'bogus'", "USAGE: passwright certs"),
        (["certs", "dev", "--pass-type-id", "com.example"], "--pass-type-id must look like", "USAGE: passwright certs dev"),
        (["serve", "--push-lease", "2"], "--push-lease takes 5 to 3600 seconds, not '2'", "USAGE: passwright serve"),
        (["serve", "--push", "maybe"], "--push is on or off", "USAGE: passwright serve"),
        // The admin commands check their command line before the token: these exit 64 without one.
        (["templates"], "missing argument SUBCOMMAND", "USAGE: passwright templates"),
        (["templates", "bogus"], "unknown subcommand 'bogus'", "USAGE: passwright templates"),
        (["templates", "push"], "missing argument DIR", "USAGE: passwright templates push"),
        (["templates", "push", "a", "b"], "unexpected argument 'b'", "USAGE: passwright templates push"),
        (["templates", "sync", "Templates", "--name", "x"], "unknown option '--name'", "USAGE: passwright templates sync"),
        (["templates", "list", "--server", "ftp://example.test"], "--server takes an http:// or https:// URL", "USAGE: passwright templates list"),
        (["templates", "versions"], "missing argument NAME", "USAGE: passwright templates versions"),
        (["templates", "versions", "loyalty", "--json=yes"], "--json takes no value", "USAGE: passwright templates versions"),
        (["push", "resend"], "use 'push stats' or 'push send PASS_TYPE_ID SERIAL'", "USAGE: passwright push"),
    ]

    @Test("usage errors exit 64 with Error: and the usage on stderr", arguments: usageErrors.indices)
    func usageError(index: Int) async throws {
        let (arguments, mentions, usage) = Self.usageErrors[index]
        try await withScratch { folder in
            let result = try await CLI.run(arguments, in: folder)
            #expect(result.status == 64, "\(arguments): \(result)")
            #expect(result.err.hasPrefix("Error: "), "\(arguments): \(result)")
            #expect(result.err.contains(mentions), "\(arguments): \(result)")
            #expect(result.err.contains(usage), "\(arguments): \(result)")
            #expect(result.out.isEmpty)
            #expect(folder.fileNames().isEmpty, "a usage error must not create anything")
        }
    }

    @Test("no arguments at all prints the usage on stderr and exits 64")
    func noArguments() async throws {
        let result = try await CLI.run([])
        #expect(result.status == 64)
        #expect(result.err.contains("USAGE: passwright <command>"))
    }
}
