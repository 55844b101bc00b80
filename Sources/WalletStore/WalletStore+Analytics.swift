import Foundation
import PassModel
import Storage

/// Programme analytics as counters (`analytics_rollups`, ``WalletSchema/analytics``): every event and
/// every push outcome adds to its day's counter in the transaction that records it, with one statement
/// per event or per batch of events; a report over a range reads the counters alone, never the events
/// or the passes, so it costs the same with a thousand events or a billion.
extension WalletStore {
    /// How many shards a counter is spread over (``WalletSchema/analytics``).
    static let analyticsShards = 8

    /// Counter rows per multi-row upsert (6 values a row), within both engines' parameter limits.
    private static let rollupInsertBatch = 100

    /// The day of `milliseconds`: whole UTC days since 1970-01-01.
    static func day(_ milliseconds: Int64) -> Int {
        // Rounded down, also before 1970 (where `/` would round towards zero).
        let (quotient, remainder) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        return Int(remainder < 0 ? quotient - 1 : quotient)
    }

    /// A counter a write adds to: its template (`''` when per pass type), version and metric.
    struct RollupKey: Hashable {
        var template: String
        var version: Int64
        var metric: AnalyticsMetric
    }

    /// What an event appended with ``appendEvents(_:at:in:)`` counts as: the event's template, the
    /// pass's version from its payload (the writes that append them put it there) and its metrics.
    static func rollups(of draft: WalletEventDraft) -> [RollupKey] {
        let version: Int64
        if case .number(let number)? = draft.payload["templateVersion"] { version = Int64(number) } else { version = 0 }
        let template = draft.template ?? ""
        switch draft.type {
        case .passIssued: return [RollupKey(template: template, version: version, metric: .issued)]
        case .passUpdated, .passVoided, .passErased: return [RollupKey(template: template, version: version, metric: .updated)]
        case .pushFailed:
            // Per pass type and device, so under no template, like every push counter.
            guard case .string(let reason)? = draft.payload["reason"] else { return [] }
            return [RollupKey(template: "", version: 0, metric: .pushFailed(reason: reason))]
        case .passInstalled, .passRemoved, .deviceGone, .templatePublished, .rolloutFinished, .jobFinished, .keyCreated, .keyRotated, .keyRevoked,
             .orderCreated, .orderUpdated, .orderErased, .orderInstalled, .orderRemoved:
            // The registration events are appended per pass (``passRollups(of:_:)``); the others,
            // orders included (the programme's figures are its passes'), count nothing.
            return []
        }
    }

    /// What an event about one pass appended with ``appendPassEvent(_:_:actor:payload:at:in:)``
    /// counts as (under the pass's template and version, read by the counting statement itself).
    static func passRollups(of type: WalletEventType, _ payload: JSONObject) -> [AnalyticsMetric] {
        switch type {
        case .passInstalled:
            // `devices` is the pass's registrations after this one: 1 is its first device.
            guard case .number(let devices)? = payload["devices"] else { return [.devicesAdded] }
            return devices == 1 ? [.devicesAdded, .installed] : [.devicesAdded]
        case .passRemoved, .deviceGone:
            return payload["allDevicesRemoved"] == .bool(true) ? [.devicesRemoved, .removed] : [.devicesRemoved]
        default:
            return rollups(of: WalletEventDraft(type: type, actor: "", payload: payload)).map(\.metric)
        }
    }

    /// Adds `counts` to today's counters in the caller's transaction: one upsert per 100 counters, on
    /// one shard drawn for the statement.
    func addRollups(_ counts: [RollupKey: Int], at now: Int64, in transaction: Transaction) async throws {
        guard countsAnalytics else { return }
        let day = Self.day(now)
        try await Self.upsertRollups(
            counts.map { Counter(day: day, template: $0.key.template, version: $0.key.version, metric: $0.key.metric.name, count: $0.value) }, shard: Int.random(in: 0..<Self.analyticsShards), in: transaction)
    }

    /// A count to add to one day's counter (its metric by stored name, so compaction keeps names
    /// this build does not know).
    private struct Counter {
        var day: Int
        var template: String
        var version: Int64
        var metric: String
        var count: Int
    }

    /// Adds each row's count to its counter on `shard`, 100 rows per statement, each with the
    /// transaction's next statement (an upsert: nothing to read, no key to fail on).
    private static func upsertRollups(_ rows: [Counter], shard: Int, in transaction: Transaction) async throws {
        // In key order, so two writers of the same counters lock them in the same order.
        let entries = rows.filter { $0.count != 0 }.sorted {
            ($0.day, $0.template, $0.version, $0.metric) < ($1.day, $1.template, $1.version, $1.metric)
        }
        for batch in entries.batches(of: Self.rollupInsertBatch) {
            var parameters: [SQLValue] = []
            for row in batch {
                parameters += [
                    .integer(Int64(row.day)), .text(row.template), .integer(row.version), .text(row.metric), .integer(Int64(shard)),
                    .integer(Int64(row.count)),
                ]
            }
            // Only fixed fragments and placeholders are concatenated; every value is a parameter.
            try await transaction.executeLater(SQL(unsafeText: """
                INSERT INTO analytics_rollups (day, template, version, metric, shard, count) VALUES \(SQL.list("(?, ?, ?, ?, ?, ?)", count: batch.count))
                ON CONFLICT (day, template, version, metric, shard) DO UPDATE SET count = analytics_rollups.count + excluded.count
                """, parameters: parameters))
        }
    }

    /// A counter's key as stored.
    private struct CounterKey: Hashable {
        var day: Int
        var template: String
        var version: Int64
        var metric: String
    }

    /// Folds up to `limit` counter rows of the days before `day` into their shard 0 and returns how
    /// many went: the shards spread the writers of the current day; a past day takes no more writes,
    /// so its counters need one row each, and a year's report reads a row per counter, not eight. The
    /// rows folded are exactly the ones deleted (`RETURNING`), so a late write to one is never lost.
    public func compactAnalytics(before day: Int, limit: Int = 1_000) async throws -> Int {
        try await storing("fold the analytics shards of past days") {
            try await database.transaction { transaction in
                let removed = try await transaction.query(SQL(
                    """
                    DELETE FROM analytics_rollups WHERE (day, template, version, metric, shard) IN (
                        SELECT day, template, version, metric, shard FROM analytics_rollups WHERE day < ? AND shard > 0
                        ORDER BY day LIMIT ?)
                    RETURNING day, template, version, metric, count
                    """, .integer(Int64(day)), .integer(Int64(limit))))
                var sums: [CounterKey: Int] = [:]
                for row in removed {
                    let key = CounterKey(
                        day: try row.int("day"), template: try row.string("template"), version: try row.int64("version"), metric: try row.string("metric"))
                    sums[key, default: 0] += try row.int("count")
                }
                try await Self.upsertRollups(
                    sums.map { Counter(day: $0.key.day, template: $0.key.template, version: $0.key.version, metric: $0.key.metric, count: $0.value) },
                    shard: 0, in: transaction)
                return removed.count
            }
        }
    }

    /// Adds one to each of `metrics` under the template and version of the pass `key`, read by the
    /// same statement (nothing is counted when the pass is gone). A pass's event on PostgreSQL counts
    /// in its own statement instead (``appendPassEvent(_:_:actor:payload:at:in:)``).
    func addPassRollups(_ metrics: [AnalyticsMetric], for key: PassKey, at now: Int64, in transaction: Transaction) async throws {
        guard countsAnalytics, !metrics.isEmpty else { return }
        let names = Array(Set(metrics.map(\.name))).sorted()
        let shard = Int64.random(in: 0..<Int64(Self.analyticsShards))
        // Typed, since PostgreSQL reads an untyped parameter in VALUES as text.
        let rows = SQL.list("(CAST(? AS TEXT))", count: names.count)
        // Only fixed fragments and placeholders are concatenated; every value is a parameter.
        try await transaction.execute(SQL(unsafeText: """
            WITH counted (metric) AS (VALUES \(rows))
            INSERT INTO analytics_rollups (day, template, version, metric, shard, count)
            SELECT CAST(? AS INTEGER), passes.template, passes.template_version, counted.metric, CAST(? AS INTEGER), 1
            FROM passes JOIN counted ON 1 = 1
            WHERE passes.pass_type_identifier = ? AND passes.serial_number = ?
            ON CONFLICT (day, template, version, metric, shard) DO UPDATE SET count = analytics_rollups.count + excluded.count
            """, parameters: names.map(SQLValue.text) + [
                .integer(Int64(Self.day(now))), .integer(shard), .text(key.passTypeIdentifier), .text(key.serialNumber),
            ]))
    }

    /// Counts registrations removed without an event of their own (an erased pass's, after its grace):
    /// `removed` holds one key per registration; a pass left with none is counted as removed too.
    func addRemovedRegistrationRollups(_ removed: [PassKey], at now: Int64, in transaction: Transaction) async throws {
        guard countsAnalytics, !removed.isEmpty else { return }
        var perPass: [PassKey: Int] = [:]
        for key in removed { perPass[key, default: 0] += 1 }
        let keys = Array(perPass.keys)
        var counts: [RollupKey: Int] = [:]
        for chunk in keys.batches(of: Self.maximumWriteBatch) {
            // Only fixed fragments and placeholders are concatenated; every value is a parameter.
            let rows = try await transaction.query(SQL(unsafeText: """
                SELECT passes.pass_type_identifier, passes.serial_number, passes.template, passes.template_version,
                       CASE WHEN EXISTS (SELECT 1 FROM registrations WHERE registrations.pass_type_identifier = passes.pass_type_identifier
                                                                     AND registrations.serial_number = passes.serial_number)
                            THEN 1 ELSE 0 END AS remaining
                FROM (VALUES \(SQL.list("(?, ?)", count: chunk.count))) AS wanted
                JOIN passes ON passes.pass_type_identifier = wanted.column1 AND passes.serial_number = wanted.column2
                """, parameters: chunk.flatMap { [SQLValue.text($0.passTypeIdentifier), .text($0.serialNumber)] }))
            for row in rows {
                let key = PassKey(passTypeIdentifier: try row.string("pass_type_identifier"), serialNumber: try row.string("serial_number"))
                let template = try row.string("template"), version = try row.int64("template_version")
                counts[RollupKey(template: template, version: version, metric: .devicesRemoved), default: 0] += perPass[key] ?? 0
                if try row.int("remaining") == 0 { counts[RollupKey(template: template, version: version, metric: .removed), default: 0] += 1 }
            }
        }
        try await addRollups(counts, at: now, in: transaction)
    }

    /// Counts a visit to the holder page of the pass `key` under its template and version (nothing
    /// is counted for an unknown pass). The holder page calls it for each page shown and download.
    public func recordHolderVisit(_ visit: HolderVisit, pass key: PassKey) async throws {
        let now = clock.nowMilliseconds()
        try await storing("count a holder page visit of \(key)") {
            try await database.transaction { transaction in
                try await self.addPassRollups([visit.metric], for: key, at: now, in: transaction)
            }
        }
    }

    /// The counters of days `fromDay` through `toDay` (UTC days since 1970) summed over their shards
    /// (and over templates and versions unless `perVersion`), of `template` and of no template
    /// (pushes) when one is given, of all otherwise; the balances before and after the range (one
    /// aggregate over the other days' counters); the versions uploaded within it. A day of the range
    /// is a handful of rows: a year's report reads a few thousand, whatever the number of events.
    public func analytics(template: String?, fromDay: Int, toDay: Int, perVersion: Bool = false) async throws -> AnalyticsRollups {
        try await storing("read the analytics of days \(fromDay) to \(toDay)") {
            var condition = ""
            var templateParameters: [SQLValue] = []
            if let template {
                condition = " AND template IN (?, '')"
                templateParameters = [.text(template)]
            }
            let groups = perVersion ? "day, template, version, metric" : "day, metric"
            // Only fixed fragments are concatenated; every value is a parameter.
            let rows = try await database.query(SQL(unsafeText: """
                SELECT \(groups), CAST(SUM(count) AS BIGINT) AS count FROM analytics_rollups
                WHERE day >= ? AND day <= ?\(condition)
                GROUP BY \(groups)
                ORDER BY \(groups)
                """, parameters: [.integer(Int64(fromDay)), .integer(Int64(toDay))] + templateParameters))
            let rollups = try rows.compactMap { row -> AnalyticsRollup? in
                guard let metric = AnalyticsMetric(name: try row.string("metric")) else { return nil }
                return AnalyticsRollup(
                    day: try row.int("day"), template: perVersion ? try row.string("template") : nil, version: perVersion ? try row.int64("version") : nil,
                    metric: metric, count: try row.int("count"))
            }
            let balances: [AnalyticsMetric] = [.installed, .removed, .devicesAdded, .devicesRemoved]
            var before: [String: Int] = [:], after: [String: Int] = [:]
            for row in try await database.query(SQL(unsafeText: """
                SELECT metric, CAST(SUM(CASE WHEN day < ? THEN count ELSE 0 END) AS BIGINT) AS before,
                       CAST(SUM(CASE WHEN day > ? THEN count ELSE 0 END) AS BIGINT) AS after
                FROM analytics_rollups
                WHERE (day < ? OR day > ?) AND metric IN (?, ?, ?, ?)\(condition)
                GROUP BY metric
                """, parameters: [.integer(Int64(fromDay)), .integer(Int64(toDay)), .integer(Int64(fromDay)), .integer(Int64(toDay))]
                    + balances.map { .text($0.name) } + templateParameters)) {
                before[try row.string("metric")] = try row.int("before")
                after[try row.string("metric")] = try row.int("after")
            }
            let versionCondition = template == nil ? "" : " AND name = ?"
            let versions = try await database.query(SQL(unsafeText: """
                SELECT name, version, uploaded_at FROM template_versions
                WHERE uploaded_at >= ? AND uploaded_at < ?\(versionCondition)
                ORDER BY uploaded_at, name, version
                """, parameters: [.integer(Int64(fromDay) * 86_400_000), .integer(Int64(toDay + 1) * 86_400_000)] + templateParameters)).map {
                (template: try $0.string("name"), version: try $0.int64("version"), day: Self.day(try $0.int64("uploaded_at")))
            }
            func net(_ sums: [String: Int], _ added: AnalyticsMetric, _ removed: AnalyticsMetric) -> Int {
                (sums[added.name] ?? 0) - (sums[removed.name] ?? 0)
            }
            return AnalyticsRollups(
                rollups: rollups, activePassesBefore: net(before, .installed, .removed), devicesBefore: net(before, .devicesAdded, .devicesRemoved),
                activePassesAfter: net(after, .installed, .removed), devicesAfter: net(after, .devicesAdded, .devicesRemoved), versions: versions)
        }
    }

    /// Passes on at least one device and device registrations now, per template: one aggregate over
    /// the counters (the `/metrics` gauges).
    public func analyticsTotals() async throws -> AnalyticsTotals {
        try await storing("read the analytics totals") {
            let balances: [AnalyticsMetric] = [.installed, .removed, .devicesAdded, .devicesRemoved]
            var active: [String: Int] = [:], devices: [String: Int] = [:]
            for row in try await database.query(SQL(
                """
                SELECT template, metric, CAST(SUM(count) AS BIGINT) AS count FROM analytics_rollups
                WHERE metric IN (?, ?, ?, ?) GROUP BY template, metric
                """, parameters: balances.map { .text($0.name) })) {
                let template = try row.string("template"), count = try row.int("count")
                switch AnalyticsMetric(name: try row.string("metric")) {
                case .installed?: active[template, default: 0] += count
                case .removed?: active[template, default: 0] -= count
                case .devicesAdded?: devices[template, default: 0] += count
                case .devicesRemoved?: devices[template, default: 0] -= count
                default: break
                }
            }
            return AnalyticsTotals(activePasses: active, devices: devices)
        }
    }
}
