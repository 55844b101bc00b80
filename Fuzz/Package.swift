// swift-tools-version:6.0
import PackageDescription

/// libFuzzer targets for Passwright, in a package of their own so that a normal `swift build` of the
/// project never needs the fuzzer runtime. Build and run them with `scripts/fuzz.sh`, which passes
/// `-sanitize=fuzzer,address` so that every Passwright module is instrumented, not just these.
let package = Package(
    name: "PasswrightFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Passwright", path: "..")],
    targets: [
        .target(name: "FuzzSupport", dependencies: [
            .product(name: "PassCompiler", package: "Passwright"),
            .product(name: "Signing", package: "Passwright"), .product(name: "Locking", package: "Passwright"),
        ]),
        .executableTarget(name: "FuzzPassJSON", dependencies: [
            "FuzzSupport", .product(name: "PassModel", package: "Passwright"),
        ]),
        .executableTarget(name: "FuzzOrderJSON", dependencies: [
            "FuzzSupport", .product(name: "OrderModel", package: "Passwright"), .product(name: "PassModel", package: "Passwright"),
        ]),
        .executableTarget(name: "FuzzTemplateRender", dependencies: [
            "FuzzSupport", .product(name: "PassCompiler", package: "Passwright"),
            .product(name: "PassModel", package: "Passwright"), .product(name: "Signing", package: "Passwright"),
        ]),
        .executableTarget(name: "FuzzPkpass", dependencies: [
            "FuzzSupport", .product(name: "PassCompiler", package: "Passwright"),
        ]),
        .executableTarget(name: "FuzzPassStrings", dependencies: [
            "FuzzSupport", .product(name: "PassCompiler", package: "Passwright"),
        ]),
        .executableTarget(name: "FuzzPreview", dependencies: [
            "FuzzSupport", .product(name: "PassPreview", package: "Passwright"), .product(name: "PassModel", package: "Passwright"),
        ]),
        .executableTarget(name: "FuzzHTTPRequest", dependencies: [
            "FuzzSupport", .product(name: "WalletCore", package: "Passwright"), .product(name: "WalletHTTP", package: "Passwright"),
            .product(name: "HTTPServer", package: "Passwright"), .product(name: "Signing", package: "Passwright"),
            .product(name: "PasswrightLogging", package: "Passwright"),
        ]),
    ]
)
