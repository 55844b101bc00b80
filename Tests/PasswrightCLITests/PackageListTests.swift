import Foundation
import PasswrightTesting
import Testing

/// The Debian packages live in one set of lists (`packages/*.list`); `scripts/setup.sh`, the image and
/// the manifest's install hints must all take theirs from there, or a library added for development
/// goes missing from the image again (the container stopped building that way once). The container
/// stage checks the other direction: the runtime list against the binary's linked libraries.
@Suite("Package lists")
struct PackageListTests {
    static let lists = ["build", "runtime", "test", "container"]

    static func text(_ path: String) throws -> String {
        try String(contentsOf: Repository.root.appendingPathComponent(path), encoding: .utf8)
    }

    /// A list's packages: comments and blank lines skipped, as `scripts/setup.sh` and the Dockerfile read it.
    static func packages(_ list: String) throws -> [String] {
        try text("packages/\(list).list").split(separator: "\n").compactMap { line in
            let package = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                .trimmingCharacters(in: .whitespaces)
            return package.isEmpty ? nil : package
        }
    }

    @Test("every list holds Debian package names, each package in one list only")
    func listsAreWellFormed() throws {
        var seen: [String: String] = [:]
        for list in Self.lists {
            let packages = try Self.packages(list)
            #expect(!packages.isEmpty, "packages/\(list).list is empty")
            for package in packages {
                // Debian policy §5.6.1: lower case letters, digits, + - . ; at least two characters.
                #expect(package.wholeMatch(of: /[a-z0-9][a-z0-9+.\-]+/) != nil, "packages/\(list).list: '\(package)' is not a package name")
                if let other = seen[package] {
                    Issue.record("\(package) is in packages/\(other).list and packages/\(list).list: one list each")
                }
                seen[package] = list
            }
        }
    }

    @Test("the manifest's install hints are packages of packages/build.list")
    func manifestHintsAreInTheBuildList() throws {
        let manifest = try Self.text("Package.swift")
        let hinted = manifest.matches(of: /\.apt\(\[([^\]]*)\]\)/).flatMap { match in
            match.1.matches(of: /"([^"]+)"/).map { String($0.1) }
        }
        #expect(hinted.count >= 10, "found only \(hinted) in Package.swift's providers")
        let build = Set(try Self.packages("build"))
        for package in hinted {
            #expect(build.contains(package), "Package.swift names \(package) as a provider; packages/build.list lacks it")
        }
    }

    @Test("the image installs exactly the build and runtime lists, and nothing named by hand")
    func dockerfileInstallsFromTheLists() throws {
        let dockerfile = try Self.text("docker/Dockerfile")
        let stages = dockerfile.components(separatedBy: "\nFROM ")
        #expect(stages.count == 3, "docker/Dockerfile should have a build and a runtime stage")
        guard stages.count == 3 else { return }
        #expect(stages[1].contains("COPY packages/build.list"), "the build stage does not install packages/build.list")
        #expect(stages[2].contains("COPY packages/runtime.list"), "the runtime stage does not install packages/runtime.list")
        #expect(!stages[1].contains("runtime.list") && !stages[2].contains("build.list"), "a stage installs the other stage's list")
        // Every apt-get install takes its packages from xargs, never from the command line.
        for line in dockerfile.split(separator: "\n") where line.contains("apt-get install") {
            #expect(line.contains("| xargs apt-get install"), "docker/Dockerfile installs packages by hand: \(line)")
        }
    }

    @Test("scripts/setup.sh installs from the lists and names no package itself")
    func setupInstallsFromTheLists() throws {
        let setup = try Self.text("scripts/setup.sh")
        #expect(setup.contains("packages/$list.list"), "scripts/setup.sh does not read packages/<list>.list")
        let installs = setup.split(separator: "\n").filter { $0.contains("apt-get install") && !$0.hasPrefix("#") }
        #expect(!installs.isEmpty, "scripts/setup.sh installs nothing")
        for line in installs {
            #expect(line.hasSuffix("\"${missing[@]}\"" + " >/dev/null") || line.hasSuffix("\"${missing[@]}\""),
                    "scripts/setup.sh installs packages named by hand: \(line)")
        }
    }
}
