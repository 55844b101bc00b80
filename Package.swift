// swift-tools-version:6.0
import PackageDescription

/// Passwright: Apple Wallet passes compiled, served and pushed from one Swift package.
///
/// Every C library is reached through one system-library target and imported by exactly one
/// wrapper target; everything above the wrappers is safe Swift.
let package = Package(
    name: "Passwright",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "passwright", targets: ["passwright"]),
        .library(name: "PassCompiler", targets: ["PassCompiler"]),
        .library(name: "PassModel", targets: ["PassModel"]),
        .library(name: "PassLint", targets: ["PassLint"]),
        // Wallet Orders: the typed `order.json` model, decoded and validated with PassModel's machinery.
        .library(name: "OrderModel", targets: ["OrderModel"]),
        // A signed Wallet document (manifest, detached CMS signature, zip), shared by passes and orders.
        .library(name: "WalletPackage", targets: ["WalletPackage"]),
        // The signed `.order` package: built from an `Order` and its images, and verified.
        .library(name: "OrderPackage", targets: ["OrderPackage"]),
        .library(name: "OrderPreview", targets: ["OrderPreview"]),
        .library(name: "PassPreview", targets: ["PassPreview"]),
        // The services (passes, templates, pushes, previews) over the store, for embedding without HTTP.
        .library(name: "WalletCore", targets: ["WalletCore"]),
        // The HTTP adapters over WalletCore and the running `WalletService`.
        .library(name: "WalletHTTP", targets: ["WalletHTTP"]),
        // For embedding the service and for the fuzz targets in Fuzz/ (a package of their own).
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .library(name: "Signing", targets: ["Signing"]),
        .library(name: "Locking", targets: ["Locking"]),
        .library(name: "PasswrightLogging", targets: ["PasswrightLogging"]),
    ],
    targets: [
        // C libraries (modulemap + shim.h only).
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CZip", pkgConfig: "libzip", providers: [.apt(["libzip-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CGlibc"),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // libvips' headers sit in the default include path and need only GObject's; its own
        // pkg-config file adds `-pthread`, which SwiftPM refuses with a warning on every build.
        .systemLibrary(name: "CVips", pkgConfig: "gobject-2.0", providers: [.apt(["libvips-dev"])]),
        // For the same reason, a pkg-config file of the headers only (see the file).
        .systemLibrary(
            name: "CPangoCairo",
            pkgConfig: Context.packageDirectory + "/Sources/CPangoCairo/pangocairo-headers.pc",
            providers: [.apt(["libpango1.0-dev", "libcairo2-dev"])]
        ),
        .systemLibrary(name: "CZint", providers: [.apt(["libzint-dev"])]),
        .systemLibrary(name: "CArgon2", pkgConfig: "libargon2", providers: [.apt(["libargon2-dev"])]),

        // Shared state behind a lock that ThreadSanitizer can see (see Locked.swift).
        .target(name: "Locking"),
        // Structured JSON-line logging, shared by the HTTP layer, the push worker and the CLI. Not named
        // `Logging`, which would clash with swift-log for anyone embedding these libraries.
        .target(name: "PasswrightLogging"),

        // Wrappers: the only importers of their C module.
        .target(name: "Signing", dependencies: ["COpenSSL"]),
        .target(name: "ZipArchive", dependencies: ["CZip", "Locking"]),
        .target(name: "Storage", dependencies: ["CSQLite", "CPostgres", "Locking"]),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "Locking", "PasswrightLogging"]),
        // libcurl's one wrapper: HTTP/1.1 and HTTP/2 requests from async code (APNs, webhooks, doctor).
        .target(name: "HTTPClient", dependencies: ["CCurl", "Locking"]),
        .target(name: "APNs", dependencies: ["HTTPClient"]),
        // Resizes master images into a slot's @1x/@2x/@3x PNGs at the sizes PassModel's ImageSpec gives.
        .target(name: "ImageProcessing", dependencies: ["CVips", "PassModel"]),

        // Shapes, images and text (Cairo, with Pango through PangoCairo) drawn to PNG or SVG.
        .target(name: "Drawing", dependencies: ["CPangoCairo", "Locking"]),
        // QR, PDF417, Aztec and Code 128 symbols encoded by zint, as module rectangles.
        .target(name: "Barcodes", dependencies: ["CZint"]),
        // Console passwords hashed into argon2id PHC strings and verified against them (libargon2).
        .target(name: "Passwords", dependencies: ["CArgon2"]),

        // Libraries.
        .target(name: "PassModel"),
        .target(name: "OrderModel", dependencies: ["PassModel"]),
        .target(name: "WalletStore", dependencies: ["Storage", "PassModel"]),
        // What passes and orders share: files → manifest (SHA-1 or SHA-256) → signature → zip, and back.
        .target(name: "WalletPackage", dependencies: ["Signing", "ZipArchive"]),
        .target(name: "PassCompiler", dependencies: ["PassModel", "WalletPackage", "Signing", "ZipArchive", "CGlibc"]),
        .target(name: "OrderPackage", dependencies: ["OrderModel", "PassModel", "WalletPackage", "Signing", "ZipArchive"]),
        // Draws an order as Wallet's order detail screen shows it.
        .target(name: "OrderPreview", dependencies: ["OrderModel", "PassModel", "Drawing", "ImageProcessing"]),
        .target(name: "PassLint", dependencies: ["PassModel", "PassCompiler", "WalletPackage", "Signing", "ZipArchive"]),
        // Lays a pass out as Wallet does and draws it (front and back, per locale) with Drawing and Barcodes.
        .target(name: "PassPreview", dependencies: ["PassModel", "PassCompiler", "ZipArchive", "Drawing", "Barcodes", "ImageProcessing"]),
        // The services: the only target above WalletStore and Storage (style rule 14). No HTTP: the
        // server's settings and every HTTP type stay in WalletHTTP.
        .target(name: "WalletCore", dependencies: [
            "WalletStore", "Storage", "APNs", "HTTPClient", "PassCompiler", "PassLint", "PassModel", "Signing", "ZipArchive", "Locking",
            "PasswrightLogging", "ImageProcessing", "PassPreview", "Passwords", "Barcodes", "Drawing", "OrderModel", "OrderPackage", "OrderPreview",
        ]),
        // The HTTP adapters (routes, console, operations, OpenAPI) and the composition root. Never
        // WalletStore or Storage: routes reach the store through WalletCore (BoundaryTests check it).
        .target(name: "WalletHTTP", dependencies: [
            "WalletCore", "HTTPServer", "PassCompiler", "PassLint", "PassModel", "Signing", "ZipArchive", "Locking",
            "PasswrightLogging", "PassPreview", "OrderModel",
        ], resources: [.copy("Resources")]),
        .target(name: "PasswrightCLI", dependencies: [
            "WalletCore", "WalletHTTP", "PassLint", "PassCompiler", "WalletPackage", "PassModel", "Signing", "ZipArchive", "HTTPServer", "Locking", "PasswrightLogging",
            "ImageProcessing", "PassPreview", "HTTPClient", "APNs", "OrderModel", "OrderPackage",
        ]),
        .executableTarget(name: "passwright", dependencies: ["PasswrightCLI", "PassCompiler"]),

        // The test kit (style rule 13): helpers every test target shares, depended on by test targets only.
        // Not named `*Tests`, so scripts/unit-tests.sh does not run it as a test target.
        .target(name: "PasswrightTesting", dependencies: ["Storage", "Signing", "HTTPServer", "PasswrightLogging", "Locking"], path: "Tests/PasswrightTesting"),

        // Tests: one target per library.
        .testTarget(name: "LockingTests", dependencies: ["Locking"]),
        .testTarget(name: "SigningTests", dependencies: ["Signing", "Locking", "PasswrightTesting"]),
        .testTarget(name: "ZipArchiveTests", dependencies: ["ZipArchive", "PasswrightTesting"]),
        .testTarget(name: "StorageTests", dependencies: ["Storage", "Locking", "PasswrightTesting"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "Locking", "PasswrightLogging", "PasswrightTesting"]),
        .testTarget(name: "APNsTests", dependencies: ["APNs", "Locking", "PasswrightTesting"]),
        .testTarget(name: "HTTPClientTests", dependencies: ["HTTPClient", "HTTPServer", "PasswrightTesting"]),
        .testTarget(name: "PassModelTests", dependencies: ["PassModel"]),
        .testTarget(name: "OrderModelTests", dependencies: ["OrderModel", "PassModel"], resources: [.copy("Fixtures")]),
        .testTarget(name: "PasswordsTests", dependencies: ["Passwords", "PasswrightTesting"]),
        .testTarget(name: "ImageProcessingTests", dependencies: ["ImageProcessing", "PassModel", "PasswrightTesting"]),
        .testTarget(name: "DrawingTests", dependencies: ["Drawing", "Barcodes", "ImageProcessing", "PasswrightTesting"]),
        .testTarget(name: "OrderPreviewTests", dependencies: ["OrderPreview", "OrderModel", "OrderPackage", "PassModel", "Drawing", "PasswrightTesting"]),
        .testTarget(name: "PassPreviewTests", dependencies: ["PassPreview", "PassCompiler", "PassModel", "Drawing", "PasswrightTesting"]),
        .testTarget(name: "WalletStoreTests", dependencies: ["WalletStore", "Storage", "PassModel", "Locking", "PasswrightTesting"]),
        .testTarget(name: "PassCompilerTests", dependencies: ["PassCompiler", "WalletPackage", "PassModel", "Signing", "ZipArchive", "PasswrightTesting"]),
        .testTarget(name: "OrderPackageTests", dependencies: [
            "OrderPackage", "OrderModel", "WalletPackage", "PassModel", "Signing", "ZipArchive", "PasswrightTesting",
        ]),
        .testTarget(
            name: "PassLintTests", dependencies: ["PassLint", "PassCompiler", "PassModel", "Signing", "Locking", "PasswrightTesting"],
            exclude: ["Snapshots"]),
        .testTarget(name: "WalletHTTPTests", dependencies: [
            "WalletHTTP", "WalletCore", "WalletStore", "Storage", "HTTPServer", "PassCompiler", "PassModel", "Signing", "ZipArchive",
            "Locking", "PasswrightLogging", "PasswrightTesting", "OrderPackage",
        ]),
        .testTarget(name: "PasswrightCLITests", dependencies: [
            "PasswrightCLI", "Signing", "ZipArchive", "Locking", "PasswrightTesting",
            // lint --pictures is judged by drawing the findings' fixes and sampling the pictures.
            "PassLint", "PassCompiler", "PassModel", "PassPreview", "Drawing",
        ]),
    ]
)
