import PassModel
import Storage

extension WalletStore {
    /// A registration on PostgreSQL as one statement, outside a transaction: the device upserted, the
    /// registration inserted, the device's queued pushes moved to its token and, for a new
    /// registration, its `pass.installed` event, analytics counters and webhook deliveries.
    ///
    /// The same rows as the SQLite path's transaction, in one round trip instead of seven (`BEGIN`
    /// with the first statement, five more and `COMMIT`): measured with `Benchmarks/http.sh`, each
    /// round trip cost PostgreSQL's backend and the server a wake-up, which was most of a
    /// registration's CPU on both sides (BENCHMARKS.md). One statement is atomic and durable when it
    /// returns, as the transaction was at its commit.
    ///
    /// Sub-statements of one statement share its snapshot and do not see each other's rows, so the
    /// device count is the registrations that were there before plus this one; the `LIMIT` and `LEAST`
    /// keep the bound of ``countedDevices``. The counters follow ``passRollups(of:_:)``: a device added,
    /// and the pass installed when this is its first device.
    func registerInOneStatement(deviceLibraryIdentifier device: String, pushToken: String, pass key: PassKey, at now: Int64) async throws -> RegistrationResult {
        let rows: [Row]
        do {
            // Only fixed fragments and placeholders make the text; every value is a parameter.
            rows = try await database.query(SQL(unsafeText: Self.registrationStatement, parameters: [
                .text(device), .text(pushToken), .integer(now),
                .text(device), .text(key.passTypeIdentifier), .text(key.serialNumber), .integer(now),
                .text(pushToken), .text(device), .text(pushToken),
                .integer(Int64(Self.countedDevices)), .text(key.passTypeIdentifier), .text(key.serialNumber), .integer(Int64(Self.countedDevices)),
                .text(key.passTypeIdentifier), .text(key.serialNumber),
                .integer(Int64(Self.day(now))), .integer(Int64.random(in: 0..<Int64(Self.analyticsShards))),
                .text(AnalyticsMetric.devicesAdded.name), .text(AnalyticsMetric.installed.name), .integer(countsAnalytics ? 1 : 0),
                .integer(now), .text(WalletEventType.passInstalled.rawValue), .text("device"),
                .integer(now), .integer(now),
                .text(Self.webhookChannel),
            ]))
        } catch let error as StorageError where error.isForeignKeyViolation {
            throw WalletStoreError.passNotFound(key)
        }
        if try rows[0].int("queued") > 0 { webhooksQueued() }
        return try rows[0].int("inserted") == 1 ? .created : .alreadyRegistered
    }

    private static let registrationStatement = """
        WITH device AS (
            INSERT INTO devices (device_library_identifier, push_token, updated_at) VALUES (?, ?, ?)
            ON CONFLICT (device_library_identifier) DO UPDATE SET push_token = excluded.push_token, updated_at = excluded.updated_at
            RETURNING 1),
        registered AS (
            INSERT INTO registrations (device_library_identifier, pass_type_identifier, serial_number, created_at)
            VALUES (?, ?, ?, CAST(? AS BIGINT))
            ON CONFLICT (device_library_identifier, pass_type_identifier, serial_number) DO NOTHING
            RETURNING 1),
        moved AS (
            UPDATE push_outbox SET push_token = ? WHERE device_library_identifier = ? AND push_token <> ?
            RETURNING 1),
        counted AS (
            SELECT LEAST(COUNT(*) + (SELECT COUNT(*) FROM registered), CAST(? AS BIGINT)) AS devices FROM (
                SELECT 1 FROM registrations WHERE pass_type_identifier = ? AND serial_number = ? LIMIT ?) AS existing),
        pass AS (
            SELECT passes.pass_type_identifier, passes.serial_number, passes.template, passes.template_version, counted.devices
            FROM passes, counted
            WHERE passes.pass_type_identifier = ? AND passes.serial_number = ? AND EXISTS (SELECT 1 FROM registered)),
        counters AS (
            INSERT INTO analytics_rollups (day, template, version, metric, shard, count)
            SELECT CAST(? AS INTEGER), pass.template, pass.template_version, metrics.metric, CAST(? AS INTEGER), 1
            FROM pass, (VALUES (CAST(? AS TEXT), FALSE), (CAST(? AS TEXT), TRUE)) AS metrics (metric, first_device_only)
            WHERE CAST(? AS INTEGER) = 1 AND (NOT metrics.first_device_only OR pass.devices = 1)
            ON CONFLICT (day, template, version, metric, shard) DO UPDATE SET count = analytics_rollups.count + excluded.count),
        event AS (
            INSERT INTO events (occurred_at, type, pass_type_identifier, serial_number, template, actor, payload)
            SELECT CAST(? AS BIGINT), ?, pass_type_identifier, serial_number, template, ?, '{"devices":' || devices || '}' FROM pass
            RETURNING id, type, template),
        \(postgresDeliveries(of: "event")), (SELECT COUNT(*) FROM registered) AS inserted
        """
}
