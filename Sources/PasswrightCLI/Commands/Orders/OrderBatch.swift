import Foundation
import OrderModel
import OrderPackage
import PassCompiler
import PassModel

/// `passwright batch ORDER_DIR --input orders.jsonl`: one signed `.order` per JSON Lines record, each
/// record a JSON Merge Patch over the folder's `order.json` (as the server's order templates take
/// them: lists such as line items are the record's own). A record's `orderIdentifier` names its
/// order (a UUID otherwise). A bad record is reported with its line and every problem by JSON path;
/// the rest are still built.
struct OrderBatch: Sendable {
    let folder: String
    let outDir: URL
    let overwrite: Bool
    let identities: IdentityOptions

    func run(reader: inout RecordReader, totalBytes: Int?, console: Console) throws -> ExitStatus {
        let source = try OrderSource.load(from: URL(fileURLWithPath: folder))
        guard case .object(let base)? = try? JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent("order.json"))) else {
            throw OrderPackageError.source(path: folder, message: "order.json is not a JSON object")
        }
        let now = Date()
        let packager = try identities.orderPackager(for: source.order.orderTypeIdentifier, now: now)
        try FileManager.default.createDirectory(at: outDir, withIntermediateDirectories: true)
        let progress = ProgressBar(console: console, title: "Building orders")
        var built = 0, failed = 0
        while let record = reader.next() {
            do {
                guard case .object(var patch) = try record.value.get() else {
                    throw OrderPackageError.source(path: record.name, message: "a record must be a JSON object (a merge patch of order.json)")
                }
                let identifier = Self.identifier(patch["orderIdentifier"]) ?? UUID().uuidString.lowercased()
                patch["orderIdentifier"] = .string(identifier)
                let merged = JSONMergePatch.apply(.object(patch), to: .object(base))
                let (order, decoding) = try Order.decodeAll(merged)
                let errors = decoding.filter { $0.severity == .error }
                guard errors.isEmpty else { throw OrderPackageError.invalidOrder(issues: errors) }
                let compiled = try packager.package(order, files: source.files, at: now)
                let path = outDir.path + "/" + PassFileWriter.fileName(for: identifier, extension: "order")
                do {
                    try AtomicFile.write(compiled.archive, toPath: path, existing: overwrite ? .replace : .keep, durable: false)
                } catch {
                    guard case .outputExists = error else { throw error }
                    throw PassCompilerError.output(path: path, message: "an order \(identifier) already exists (duplicate orderIdentifier?); pass --overwrite to replace it")
                }
                built += 1
            } catch {
                failed += 1
                progress.finish()
                let message = "\(error)"
                console.err("Error: " + (message.hasPrefix(record.name) ? message : "\(record.name): \(message)"))
            }
            progress.update(fraction: totalBytes.map { Double(reader.bytesConsumed) / Double(max($0, 1)) } ?? 0, detail: "\(built) built, \(failed) failed")
        }
        progress.finish()
        console.out("\(built) orders built in \(outDir.path), \(failed) failed")
        return failed == 0 ? .success : .failure
    }

    private static func identifier(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value, !text.isEmpty { return text }
        return nil
    }
}
