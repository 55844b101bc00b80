import Foundation

/// Reads pictures back with tools that share no code with the renderer: zxing-cpp (from PyPI) for
/// barcodes, tesseract (from Debian) for text.
public enum PictureCheck {
    /// Every barcode zxing-cpp finds in the PNG, as `(format, text)`; with `only`, barcodes of that
    /// zxing-cpp format alone (`QRCode`). Looking for every format, zxing-cpp now and then also reads
    /// a few modules of a QR code as a short linear code ("6437" beside a holder page's link), so a
    /// test that knows the symbology names it.
    public static func barcodes(in png: Data, only format: String? = nil) async throws -> [(format: String, text: String)] {
        let formats = format.map { ", formats=zxingcpp.BarcodeFormat.\($0)" } ?? ""
        let script = """
        import sys, io, json, zxingcpp
        from PIL import Image
        image = Image.open(io.BytesIO(sys.stdin.buffer.read())).convert("L")
        print(json.dumps([[str(b.format).split(".")[-1], b.text] for b in zxingcpp.read_barcodes(image\(formats))]))
        """
        let result = try await Subprocess.tool("python3", ["-c", script], stdin: png)
        guard result.succeeded else { throw FixtureError("zxing-cpp failed (scripts/setup.sh installs zxing-cpp and pillow): \(result.err)") }
        let decoded = try JSONSerialization.jsonObject(with: result.stdout) as? [[String]] ?? []
        return decoded.map { ($0[0], $0[1]) }
    }

    /// The text tesseract reads in the PNG (English model).
    public static func text(in png: Data) async throws -> String {
        try await withScratchFile(png, suffix: ".png") { file in
            let result = try await Subprocess.tool("tesseract", [file.path, "stdout", "--psm", "11"])
            guard result.succeeded else { throw FixtureError("tesseract failed (scripts/setup.sh installs tesseract-ocr): \(result.err)") }
            return result.out
        }
    }

    private static func withScratchFile<R>(_ data: Data, suffix: String, _ body: (URL) async throws -> R) async throws -> R {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("passwright-picture-\(UUID().uuidString)\(suffix)")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try await body(file)
    }
}
