import Storage

/// The store's tables, one versioned migration per schema change, with a script per engine.
///
/// Times are epoch milliseconds in `BIGINT`s so both engines compare them the same way. Update tags
/// come from a `SEQUENCE` on PostgreSQL and from a one-row counter on SQLite (one writer, so the
/// counter never races).
enum WalletSchema {
    static let migrations = [initial, templateVersions, notificationHolds, console, heldChanges, events, webhooks, idempotencyKeys, bulkJobs, apiKeys, auditLog, erasures, retention, consoleUsers, expiry, analytics, orders, orderErasures, orderEvents, bulkClaimCursor, fewerPassIndexes, orderTemplateVersions, signInFailures, heapOnlyPassUpdates, historyWithoutForeignKey]

    static let initial = Migration(
        version: 1,
        name: "wallet store",
        sqlite: """
            CREATE TABLE passes (
                pass_type_identifier TEXT NOT NULL,
                serial_number TEXT NOT NULL,
                template TEXT NOT NULL,
                data TEXT NOT NULL,
                overrides TEXT NOT NULL DEFAULT '{}',
                authentication_token TEXT NOT NULL,
                update_tag INTEGER NOT NULL,
                voided INTEGER NOT NULL DEFAULT 0,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL,
                PRIMARY KEY (pass_type_identifier, serial_number)
            );
            CREATE INDEX passes_template ON passes (template, pass_type_identifier, serial_number);
            CREATE INDEX passes_update_tag ON passes (update_tag);
            CREATE TABLE devices (
                device_library_identifier TEXT PRIMARY KEY,
                push_token TEXT NOT NULL,
                updated_at INTEGER NOT NULL
            );
            CREATE TABLE registrations (
                device_library_identifier TEXT NOT NULL REFERENCES devices ON DELETE CASCADE,
                pass_type_identifier TEXT NOT NULL,
                serial_number TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                PRIMARY KEY (device_library_identifier, pass_type_identifier, serial_number),
                FOREIGN KEY (pass_type_identifier, serial_number) REFERENCES passes ON DELETE CASCADE
            );
            CREATE INDEX registrations_pass ON registrations (pass_type_identifier, serial_number);
            CREATE TABLE device_logs (
                id INTEGER PRIMARY KEY,
                received_at INTEGER NOT NULL,
                message TEXT NOT NULL
            );
            CREATE TABLE push_outbox (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                device_library_identifier TEXT NOT NULL REFERENCES devices ON DELETE CASCADE,
                pass_type_identifier TEXT NOT NULL,
                push_token TEXT NOT NULL,
                generation INTEGER NOT NULL DEFAULT 1,
                enqueued_at INTEGER NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                next_attempt_at INTEGER NOT NULL,
                claimed_by TEXT,
                claimed_until INTEGER,
                last_error TEXT,
                UNIQUE (device_library_identifier, pass_type_identifier)
            );
            CREATE INDEX push_outbox_due ON push_outbox (next_attempt_at);
            CREATE TABLE update_tag_counter (id INTEGER PRIMARY KEY CHECK (id = 1), value INTEGER NOT NULL);
            INSERT INTO update_tag_counter (id, value) VALUES (1, 0);
            """,
        postgres: """
            CREATE TABLE passes (
                pass_type_identifier TEXT NOT NULL,
                serial_number TEXT NOT NULL,
                template TEXT NOT NULL,
                data TEXT NOT NULL,
                overrides TEXT NOT NULL DEFAULT '{}',
                authentication_token TEXT NOT NULL,
                update_tag BIGINT NOT NULL,
                voided BOOLEAN NOT NULL DEFAULT FALSE,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                PRIMARY KEY (pass_type_identifier, serial_number)
            );
            CREATE INDEX passes_template ON passes (template, pass_type_identifier, serial_number);
            CREATE INDEX passes_update_tag ON passes (update_tag);
            CREATE TABLE devices (
                device_library_identifier TEXT PRIMARY KEY,
                push_token TEXT NOT NULL,
                updated_at BIGINT NOT NULL
            );
            CREATE TABLE registrations (
                device_library_identifier TEXT NOT NULL REFERENCES devices ON DELETE CASCADE,
                pass_type_identifier TEXT NOT NULL,
                serial_number TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (device_library_identifier, pass_type_identifier, serial_number),
                FOREIGN KEY (pass_type_identifier, serial_number) REFERENCES passes ON DELETE CASCADE
            );
            CREATE INDEX registrations_pass ON registrations (pass_type_identifier, serial_number);
            CREATE TABLE device_logs (
                id BIGSERIAL PRIMARY KEY,
                received_at BIGINT NOT NULL,
                message TEXT NOT NULL
            );
            CREATE TABLE push_outbox (
                id BIGSERIAL PRIMARY KEY,
                device_library_identifier TEXT NOT NULL REFERENCES devices ON DELETE CASCADE,
                pass_type_identifier TEXT NOT NULL,
                push_token TEXT NOT NULL,
                generation BIGINT NOT NULL DEFAULT 1,
                enqueued_at BIGINT NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                next_attempt_at BIGINT NOT NULL,
                claimed_by TEXT,
                claimed_until BIGINT,
                last_error TEXT,
                UNIQUE (device_library_identifier, pass_type_identifier)
            );
            CREATE INDEX push_outbox_due ON push_outbox (next_attempt_at);
            CREATE SEQUENCE update_tag_sequence;
            """
    )

    /// Templates as immutable versions in the store, so every instance renders from the same files,
    /// and each pass records the version its current update tag was rendered from: a pass keeps
    /// rendering from that version until the roll-out advances it (version 0: the template's current
    /// version when the pass predates versioned templates).
    static let templateVersions = Migration(
        version: 2,
        name: "template versions",
        sqlite: """
            CREATE TABLE templates (
                name TEXT PRIMARY KEY,
                current_version INTEGER NOT NULL,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL
            );
            CREATE TABLE template_versions (
                name TEXT NOT NULL REFERENCES templates ON DELETE CASCADE,
                version INTEGER NOT NULL,
                digest TEXT NOT NULL,
                uploaded_by TEXT NOT NULL,
                uploaded_at INTEGER NOT NULL,
                restores INTEGER,
                findings TEXT NOT NULL DEFAULT '[]',
                PRIMARY KEY (name, version)
            );
            CREATE TABLE template_files (
                name TEXT NOT NULL,
                version INTEGER NOT NULL,
                path TEXT NOT NULL,
                bytes BLOB NOT NULL,
                PRIMARY KEY (name, version, path),
                FOREIGN KEY (name, version) REFERENCES template_versions ON DELETE CASCADE
            );
            ALTER TABLE passes ADD COLUMN template_version INTEGER NOT NULL DEFAULT 0;
            CREATE INDEX passes_template_version ON passes (template, template_version, pass_type_identifier, serial_number);
            """,
        postgres: """
            CREATE TABLE templates (
                name TEXT PRIMARY KEY,
                current_version BIGINT NOT NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            );
            CREATE TABLE template_versions (
                name TEXT NOT NULL REFERENCES templates ON DELETE CASCADE,
                version BIGINT NOT NULL,
                digest TEXT NOT NULL,
                uploaded_by TEXT NOT NULL,
                uploaded_at BIGINT NOT NULL,
                restores BIGINT,
                findings TEXT NOT NULL DEFAULT '[]',
                PRIMARY KEY (name, version)
            );
            CREATE TABLE template_files (
                name TEXT NOT NULL,
                version BIGINT NOT NULL,
                path TEXT NOT NULL,
                bytes BYTEA NOT NULL,
                PRIMARY KEY (name, version, path),
                FOREIGN KEY (name, version) REFERENCES template_versions ON DELETE CASCADE
            );
            ALTER TABLE passes ADD COLUMN template_version BIGINT NOT NULL DEFAULT 0;
            CREATE INDEX passes_template_version ON passes (template, template_version, pass_type_identifier, serial_number);
            """
    )

    /// Changes that would show the holder a notification at a bad moment (overnight in the holder's
    /// zone, or minutes after the last one) wait here, one per pass, until `release_at`; and each
    /// pass remembers when it last notified.
    static let notificationHolds = Migration(
        version: 3,
        name: "notification holds",
        sqlite: """
            CREATE TABLE pass_holds (
                pass_type_identifier TEXT NOT NULL,
                serial_number TEXT NOT NULL,
                data TEXT NOT NULL,
                overrides TEXT NOT NULL,
                voided INTEGER NOT NULL,
                release_at INTEGER NOT NULL,
                held_at INTEGER NOT NULL,
                PRIMARY KEY (pass_type_identifier, serial_number),
                FOREIGN KEY (pass_type_identifier, serial_number) REFERENCES passes ON DELETE CASCADE
            );
            CREATE INDEX pass_holds_release ON pass_holds (release_at);
            ALTER TABLE passes ADD COLUMN last_notified_at INTEGER;
            """,
        postgres: """
            CREATE TABLE pass_holds (
                pass_type_identifier TEXT NOT NULL,
                serial_number TEXT NOT NULL,
                data TEXT NOT NULL,
                overrides TEXT NOT NULL,
                voided BOOLEAN NOT NULL,
                release_at BIGINT NOT NULL,
                held_at BIGINT NOT NULL,
                PRIMARY KEY (pass_type_identifier, serial_number),
                FOREIGN KEY (pass_type_identifier, serial_number) REFERENCES passes ON DELETE CASCADE
            );
            CREATE INDEX pass_holds_release ON pass_holds (release_at);
            ALTER TABLE passes ADD COLUMN last_notified_at BIGINT;
            """
    )
    /// What the web console needs: its sign-in sessions (any instance accepts them), a history row per
    /// change of a pass, each device's last APNs answer, and indexes for finding passes by serial number.
    ///
    /// `passes_serial` and `passes_template_serial` order by serial number first, the order the
    /// console lists passes in, so a serial prefix is a range seek and each page a keyset seek, with or
    /// without a template. On PostgreSQL their text columns use the "C" collation, byte order as on
    /// SQLite, so a prefix and its successor bound exactly the serials that start with it whatever the
    /// database's default collation.
    static let console = Migration(
        version: 4,
        name: "console",
        sqlite: """
            CREATE TABLE console_sessions (
                token_hash TEXT PRIMARY KEY,
                csrf TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL
            );
            CREATE INDEX console_sessions_expiry ON console_sessions (expires_at);
            CREATE TABLE pass_updates (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                pass_type_identifier TEXT NOT NULL,
                serial_number TEXT NOT NULL,
                update_tag INTEGER NOT NULL,
                changed_at INTEGER NOT NULL,
                source TEXT NOT NULL,
                changes TEXT NOT NULL DEFAULT '[]',
                FOREIGN KEY (pass_type_identifier, serial_number) REFERENCES passes ON DELETE CASCADE
            );
            CREATE INDEX pass_updates_pass ON pass_updates (pass_type_identifier, serial_number, id);
            ALTER TABLE devices ADD COLUMN last_push_at INTEGER;
            ALTER TABLE devices ADD COLUMN last_push_status INTEGER;
            ALTER TABLE devices ADD COLUMN last_push_reason TEXT;
            CREATE INDEX passes_serial ON passes (serial_number, pass_type_identifier);
            CREATE INDEX passes_template_serial ON passes (template, serial_number, pass_type_identifier);
            """,
        postgres: """
            CREATE TABLE console_sessions (
                token_hash TEXT PRIMARY KEY,
                csrf TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL
            );
            CREATE INDEX console_sessions_expiry ON console_sessions (expires_at);
            CREATE TABLE pass_updates (
                id BIGSERIAL PRIMARY KEY,
                pass_type_identifier TEXT NOT NULL,
                serial_number TEXT NOT NULL,
                update_tag BIGINT NOT NULL,
                changed_at BIGINT NOT NULL,
                source TEXT NOT NULL,
                changes TEXT NOT NULL DEFAULT '[]',
                FOREIGN KEY (pass_type_identifier, serial_number) REFERENCES passes ON DELETE CASCADE
            );
            CREATE INDEX pass_updates_pass ON pass_updates (pass_type_identifier, serial_number, id);
            ALTER TABLE devices ADD COLUMN last_push_at BIGINT;
            ALTER TABLE devices ADD COLUMN last_push_status INTEGER;
            ALTER TABLE devices ADD COLUMN last_push_reason TEXT;
            CREATE INDEX passes_serial ON passes (serial_number COLLATE "C", pass_type_identifier COLLATE "C");
            CREATE INDEX passes_template_serial ON passes (template, serial_number COLLATE "C", pass_type_identifier COLLATE "C");
            """
    )

    /// A held notifying change keeps the *edits* a writer asked for (JSON, opaque to the store), not
    /// a snapshot of the pass: when it is released it is applied to the pass as it is then, so a
    /// change written meanwhile (a template-wide change, a personalization, a void) is never undone.
    /// `template_version` is the version a held roll-out moves the pass to, so the roll-out passes
    /// over it until then. Holds of the old shape become edits that set the whole record, the
    /// overrides and the voided flag (what releasing them did before).
    static let heldChanges = Migration(version: 5, name: "held changes", sqlite: heldChangesScript, postgres: heldChangesScript)

    /// One script for both engines: SQLite reads `BIGINT` as an integer column, and `voided` (0/1
    /// there, a boolean here) is tested the same way by `CASE WHEN voided`.
    private static let heldChangesScript = """
            CREATE TABLE held_changes (
                pass_type_identifier TEXT NOT NULL,
                serial_number TEXT NOT NULL,
                edits TEXT NOT NULL,
                template_version BIGINT,
                release_at BIGINT NOT NULL,
                held_at BIGINT NOT NULL,
                PRIMARY KEY (pass_type_identifier, serial_number),
                FOREIGN KEY (pass_type_identifier, serial_number) REFERENCES passes ON DELETE CASCADE
            );
            CREATE INDEX held_changes_release ON held_changes (release_at);
            INSERT INTO held_changes (pass_type_identifier, serial_number, edits, template_version, release_at, held_at)
            SELECT pass_type_identifier, serial_number,
                   '[{"data":' || data || ',"overrides":' || overrides || ',"voided":' || CASE WHEN voided THEN 'true' ELSE 'false' END || '}]',
                   NULL, release_at, held_at
            FROM pass_holds;
            DROP TABLE pass_holds;
            """

    /// The event log: one row per meaningful change, appended in the change's own transaction.
    ///
    /// Readers page it in commit order. On SQLite the single writer makes `id` that order. On
    /// PostgreSQL ids are drawn before commit, so a transaction can commit id 11 before another commits
    /// 10; `tx` (the writing transaction's id) orders events instead, and a page only shows events of
    /// transactions older than every transaction still running, so a later page never has to go back.
    /// `templates.rolled_out_version` is the version whose roll-out finished, so `rollout.finished` is
    /// appended once however many instances see the last pass move.
    static let events = Migration(
        version: 6,
        name: "event log",
        sqlite: """
            CREATE TABLE events (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                occurred_at INTEGER NOT NULL,
                type TEXT NOT NULL,
                pass_type_identifier TEXT,
                serial_number TEXT,
                template TEXT,
                actor TEXT NOT NULL,
                payload TEXT NOT NULL
            );
            CREATE INDEX events_type ON events (type, id);
            CREATE INDEX events_template ON events (template, id);
            CREATE INDEX events_occurred ON events (occurred_at);
            ALTER TABLE templates ADD COLUMN rolled_out_version INTEGER NOT NULL DEFAULT 0;
            """,
        postgres: """
            CREATE TABLE events (
                id BIGSERIAL PRIMARY KEY,
                tx xid8 NOT NULL DEFAULT pg_current_xact_id(),
                occurred_at BIGINT NOT NULL,
                type TEXT NOT NULL,
                pass_type_identifier TEXT,
                serial_number TEXT,
                template TEXT,
                actor TEXT NOT NULL,
                payload TEXT NOT NULL
            );
            CREATE INDEX events_order ON events (tx, id);
            CREATE INDEX events_type ON events (type, tx, id);
            CREATE INDEX events_template ON events (template, tx, id);
            CREATE INDEX events_occurred ON events (occurred_at);
            ALTER TABLE templates ADD COLUMN rolled_out_version BIGINT NOT NULL DEFAULT 0;
            """
    )

    /// Webhook endpoints and their deliveries: a durable outbox, filled in the transaction that appends
    /// the event (one row per matching endpoint), drained by every instance (`SKIP LOCKED` on
    /// PostgreSQL). `event_types` and `templates` are `*` or a list between commas (`,a,b,`), matched
    /// whole. Secrets are sealed (``SecretBox``); a rotated one keeps the previous secret until
    /// `previous_secret_until`. Deliveries stay after they settle, for the console and replays,
    /// until their event is pruned.
    static let webhooks = Migration(version: 7, name: "webhooks", sqlite: webhooksScript, postgres: webhooksScript
        .replacingOccurrences(of: "INTEGER PRIMARY KEY AUTOINCREMENT", with: "BIGSERIAL PRIMARY KEY"))

    private static let webhooksScript = """
            CREATE TABLE webhook_endpoints (
                id TEXT PRIMARY KEY,
                url TEXT NOT NULL,
                description TEXT NOT NULL DEFAULT '',
                event_types TEXT NOT NULL,
                templates TEXT NOT NULL,
                secret TEXT NOT NULL,
                previous_secret TEXT,
                previous_secret_until BIGINT,
                enabled BOOLEAN NOT NULL DEFAULT TRUE,
                disabled_reason TEXT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            );
            CREATE TABLE webhook_deliveries (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints ON DELETE CASCADE,
                event_id BIGINT NOT NULL REFERENCES events ON DELETE CASCADE,
                state TEXT NOT NULL DEFAULT 'pending',
                attempts INTEGER NOT NULL DEFAULT 0,
                next_attempt_at BIGINT NOT NULL,
                claimed_by TEXT,
                claimed_until BIGINT,
                last_status INTEGER,
                last_error TEXT,
                last_latency_ms INTEGER,
                response_excerpt TEXT,
                created_at BIGINT NOT NULL,
                settled_at BIGINT
            );
            CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, state, id);
            CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_attempt_at);
            CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);
            """

    /// `Idempotency-Key`s (the IETF httpapi draft): per scope (the credential that sent it), the
    /// request's fingerprint and, once it was answered, the answer to replay. `done` is 0 while the
    /// first request runs. Kept 24 hours.
    static let idempotencyKeys = Migration(version: 8, name: "idempotency keys", sqlite: idempotencyScript, postgres: idempotencyScript
        .replacingOccurrences(of: "BLOB", with: "BYTEA"))

    private static let idempotencyScript = """
            CREATE TABLE idempotency_keys (
                scope TEXT NOT NULL,
                key TEXT NOT NULL,
                fingerprint TEXT NOT NULL,
                done INTEGER NOT NULL DEFAULT 0,
                status INTEGER,
                headers TEXT,
                body BLOB,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (scope, key)
            );
            CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
            """

    /// Bulk issuing jobs and their records. A record's serial number is chosen when the upload is
    /// read, and its row turns `issued` in the transaction that inserts its pass, so a job resumed
    /// after a crash can never issue a record twice. Workers of every instance claim open records
    /// under a lease (`SKIP LOCKED` on PostgreSQL); the partial index holds only the open ones. An
    /// issued record's `issued_ordinal` numbers it among the job's passes, for the `.pkpasses` bundles.
    static let bulkJobs = Migration(version: 9, name: "bulk jobs", sqlite: bulkJobsScript, postgres: bulkJobsScript)

    private static let bulkJobsScript = """
            CREATE TABLE bulk_jobs (
                id TEXT PRIMARY KEY,
                template TEXT NOT NULL,
                format TEXT NOT NULL,
                validation TEXT NOT NULL,
                state TEXT NOT NULL,
                records INTEGER NOT NULL DEFAULT 0,
                issued INTEGER NOT NULL DEFAULT 0,
                failed INTEGER NOT NULL DEFAULT 0,
                validated INTEGER NOT NULL DEFAULT 0,
                actor TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                started_at BIGINT,
                finished_at BIGINT,
                updated_at BIGINT NOT NULL
            );
            CREATE INDEX bulk_jobs_created ON bulk_jobs (created_at);
            CREATE TABLE bulk_job_records (
                job_id TEXT NOT NULL REFERENCES bulk_jobs (id) ON DELETE CASCADE,
                line INTEGER NOT NULL,
                serial_number TEXT NOT NULL,
                record TEXT,
                state TEXT NOT NULL,
                errors TEXT,
                issued_ordinal INTEGER,
                lease_owner TEXT,
                lease_until BIGINT,
                PRIMARY KEY (job_id, line)
            );
            CREATE INDEX bulk_job_records_open ON bulk_job_records (job_id, line) WHERE state IN ('pending', 'valid');
            CREATE UNIQUE INDEX bulk_job_records_issued ON bulk_job_records (job_id, issued_ordinal) WHERE issued_ordinal IS NOT NULL;
            """

    /// API keys: each key's secret only as a SHA-256 hash, its scopes and templates as comma lists
    /// (`NULL` templates: all), and when it was last used and from where (kept at most once a minute).
    static let apiKeys = Migration(version: 10, name: "api keys", sqlite: apiKeysScript, postgres: apiKeysScript)

    private static let apiKeysScript = """
            CREATE TABLE api_keys (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                secret_hash TEXT NOT NULL,
                scopes TEXT NOT NULL,
                templates TEXT,
                expires_at BIGINT,
                created_at BIGINT NOT NULL,
                revoked_at BIGINT,
                last_used_at BIGINT,
                last_used_address TEXT
            );
            """

    /// The audit trail: one row per audited change, appended in the change's transaction. `changes`
    /// holds the names of what changed (a JSON array), never values. Read newest first by id,
    /// filtered by actor, action or target (each with its own index), pruned by age.
    static let auditLog = Migration(version: 11, name: "audit trail", sqlite: auditLogScript, postgres: auditLogScript
        .replacingOccurrences(of: "INTEGER PRIMARY KEY AUTOINCREMENT", with: "BIGSERIAL PRIMARY KEY"))

    private static let auditLogScript = """
            CREATE TABLE audit_log (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                occurred_at BIGINT NOT NULL,
                actor TEXT NOT NULL,
                source TEXT NOT NULL,
                address TEXT,
                action TEXT NOT NULL,
                target TEXT NOT NULL,
                changes TEXT NOT NULL
            );
            CREATE INDEX audit_log_actor ON audit_log (actor, id);
            CREATE INDEX audit_log_action ON audit_log (action, id);
            CREATE INDEX audit_log_target ON audit_log (target, id);
            CREATE INDEX audit_log_occurred ON audit_log (occurred_at);
            """

    /// Erased passes: the tombstone's mark (its row in `passes` keeps the serial, the update tag and
    /// `voided`, with the record blanked), so an erasure is idempotent and the registrations can go
    /// after a grace period. `events_pass` finds one pass's events for an export.
    static let erasures = Migration(version: 12, name: "erasures", sqlite: erasuresScript, postgres: erasuresScript)

    private static let erasuresScript = """
            CREATE TABLE erased_passes (
                pass_type_identifier TEXT NOT NULL,
                serial_number TEXT NOT NULL,
                erased_at BIGINT NOT NULL,
                PRIMARY KEY (pass_type_identifier, serial_number)
            );
            CREATE INDEX erased_passes_at ON erased_passes (erased_at);
            CREATE INDEX events_pass ON events (pass_type_identifier, serial_number);
            """

    /// Indexes for retention by age: each prune is a range scan from the oldest row, however large the
    /// table and however little is old enough (voided passes by when they last changed).
    static let retention = Migration(version: 13, name: "retention", sqlite: retentionScript, postgres: retentionScript)

    private static let retentionScript = """
            CREATE INDEX pass_updates_changed ON pass_updates (changed_at);
            CREATE INDEX device_logs_received ON device_logs (received_at);
            CREATE INDEX passes_voided_updated ON passes (updated_at) WHERE voided;
            """

    /// Named console users: the password only as an argon2id hash, a pending invite only as the
    /// SHA-256 of its token; a session names its user (`NULL`: signed in with the admin token).
    static let consoleUsers = Migration(version: 14, name: "console users", sqlite: consoleUsersScript, postgres: consoleUsersScript)

    private static let consoleUsersScript = """
            CREATE TABLE console_users (
                id TEXT PRIMARY KEY,
                email TEXT NOT NULL UNIQUE,
                name TEXT NOT NULL,
                role TEXT NOT NULL,
                password_hash TEXT,
                invite_hash TEXT UNIQUE,
                invite_expires_at BIGINT,
                disabled_at BIGINT,
                created_at BIGINT NOT NULL,
                last_sign_in_at BIGINT
            );
            ALTER TABLE console_sessions ADD COLUMN user_id TEXT;
            CREATE INDEX console_sessions_user ON console_sessions (user_id);
            """

    /// Each pass's rendered `expirationDate`, recorded by every write that renders it, so the passes
    /// past it are a seek away (`--void-expired`). Passes stored before have none until they change.
    static let expiry = Migration(version: 15, name: "expiry", sqlite: expiryScript, postgres: expiryScript)

    private static let expiryScript = """
            ALTER TABLE passes ADD COLUMN expires_at BIGINT;
            CREATE INDEX passes_expiring ON passes (expires_at) WHERE NOT voided AND expires_at IS NOT NULL;
            """

    /// Programme analytics as counters, added to by each event's own transaction: per UTC day (days
    /// since 1970), template (`''` for what is per pass type, such as pushes), template version (0:
    /// none), metric and shard. The shard (0..<8, drawn per write) spreads concurrent writers of one
    /// day's counter over several rows, so PostgreSQL writers do not all queue on one row lock; a
    /// read sums over shards. The table holds days × templates × versions × metrics × shards rows,
    /// whatever the number of events, so a year's report never reads the event log.
    static let analytics = Migration(version: 16, name: "analytics", sqlite: analyticsScript, postgres: analyticsScript)

    private static let analyticsScript = """
            CREATE TABLE analytics_rollups (
                day INTEGER NOT NULL,
                template TEXT NOT NULL,
                version BIGINT NOT NULL,
                metric TEXT NOT NULL,
                shard INTEGER NOT NULL,
                count BIGINT NOT NULL,
                PRIMARY KEY (day, template, version, metric, shard)
            );
            CREATE INDEX template_versions_uploaded ON template_versions (uploaded_at);
            """

    /// Wallet orders (Apple's "Wallet Orders"), the second Wallet document: each order's whole
    /// `order.json` as stored (the template's keys with the API's patches applied), its token for the
    /// Orders web service, and the update tag drawn from the passes' counter so one push outbox serves
    /// both. Devices of the Orders web service live in `devices` under `order:<deviceIdentifier>`:
    /// Wallet may hand an order a push token of its own, which must never replace a pass's.
    static let orders = Migration(version: 17, name: "orders", sqlite: ordersScript, postgres: ordersScript)

    /// One script for both engines: `BIGINT` is SQLite's integer too, and no column here is a rowid.
    private static let ordersScript = """
            CREATE TABLE orders (
                order_type_identifier TEXT NOT NULL,
                order_identifier TEXT NOT NULL,
                template TEXT NOT NULL,
                document TEXT NOT NULL,
                authentication_token TEXT NOT NULL,
                update_tag BIGINT NOT NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                PRIMARY KEY (order_type_identifier, order_identifier)
            );
            CREATE INDEX orders_template ON orders (template, updated_at);
            CREATE TABLE order_registrations (
                device_library_identifier TEXT NOT NULL REFERENCES devices ON DELETE CASCADE,
                order_type_identifier TEXT NOT NULL,
                order_identifier TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (device_library_identifier, order_type_identifier, order_identifier),
                FOREIGN KEY (order_type_identifier, order_identifier) REFERENCES orders ON DELETE CASCADE
            );
            CREATE INDEX order_registrations_order ON order_registrations (order_type_identifier, order_identifier);
            """

    /// Erased orders: when, so the order's row stays as a tombstone (its identifiers, token, status,
    /// merchant and dates; everything else of the customer removed) that refuses further changes,
    /// and its registrations go after the passes' grace period. Indexed for that sweep.
    static let orderErasures = Migration(version: 18, name: "order erasures", sqlite: orderErasuresScript, postgres: orderErasuresScript)

    private static let orderErasuresScript = """
            ALTER TABLE orders ADD COLUMN erased_at BIGINT;
            CREATE INDEX orders_erased ON orders (erased_at) WHERE erased_at IS NOT NULL;
            """

    /// An order's events, found by its identifiers: an order event names its order in its payload (the
    /// log's pass columns stay empty), so the index is on the payload's two members, for order events
    /// only. Before it, an order's export read every order event of its template.
    static let orderEvents = Migration(
        version: 19, name: "order events",
        sqlite: """
            CREATE INDEX events_order_document ON events (json_extract(payload, '$.orderTypeIdentifier'), json_extract(payload, '$.orderIdentifier'))
                WHERE type LIKE 'order.%';
            """,
        postgres: """
            CREATE INDEX events_order_document ON events ((CAST(payload AS jsonb) ->> 'orderTypeIdentifier'), (CAST(payload AS jsonb) ->> 'orderIdentifier'))
                WHERE type LIKE 'order.%';
            """)

    /// Where a bulk job's claims go on: the highest line a claim has leased, and the job's last line.
    /// A claim searches the lines just past the cursor, and a page of results a range of lines up to
    /// the last: bounded index ranges whatever the job's size. Searching for the first open lines
    /// instead, PostgreSQL's generic plans fetched and sorted every open record of the job for each
    /// claim (33 ms a claim in a job of 100,000).
    static let bulkClaimCursor = Migration(version: 20, name: "bulk claim cursor", sqlite: bulkClaimCursorScript, postgres: bulkClaimCursorScript)

    private static let bulkClaimCursorScript = """
            ALTER TABLE bulk_jobs ADD COLUMN claimed_through INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE bulk_jobs ADD COLUMN last_line INTEGER NOT NULL DEFAULT 0;
            UPDATE bulk_jobs SET last_line = COALESCE((SELECT max(line) FROM bulk_job_records WHERE job_id = bulk_jobs.id), 0);
            """

    /// Two indexes of the passes dropped: every index of a pass is written again whenever the pass
    /// changes (its version and tag are indexed, so no update of a pass is a heap-only one), and a
    /// roll-out changes every pass. A template's pages now read `passes_template_serial`, which the
    /// search already reads, rather than `passes_template`; a write's pushes find its passes by their
    /// keys rather than by their new tag. The same update of 300,000 passes took 2.9–3.0 s without
    /// them against 4.0–5.6 s with them (BENCHMARKS.md).
    static let fewerPassIndexes = Migration(version: 21, name: "fewer pass indexes", sqlite: fewerPassIndexesScript, postgres: fewerPassIndexesScript)

    private static let fewerPassIndexesScript = """
            DROP INDEX passes_template;
            DROP INDEX passes_update_tag;
            """

    /// Order templates as immutable versions, as pass templates are: every instance signs an order
    /// with the same files whatever folder it was started with, and an order keeps the files of the
    /// version it was created from (`orders.template_version`), so a changed folder never alters an
    /// order Wallet already holds behind its `updatedAt`. Orders made before versions (0) adopt the
    /// first version stored, which is the folder they were being signed with.
    static let orderTemplateVersions = Migration(
        version: 22, name: "order template versions",
        sqlite: orderTemplateVersionsScript.replacingOccurrences(of: "BYTEA", with: "BLOB"), postgres: orderTemplateVersionsScript)

    private static let orderTemplateVersionsScript = """
            CREATE TABLE order_templates (
                name TEXT PRIMARY KEY,
                current_version BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            );
            CREATE TABLE order_template_versions (
                name TEXT NOT NULL REFERENCES order_templates ON DELETE CASCADE,
                version BIGINT NOT NULL,
                order_type_identifier TEXT NOT NULL,
                digest TEXT NOT NULL,
                document TEXT NOT NULL,
                stored_by TEXT NOT NULL,
                stored_at BIGINT NOT NULL,
                PRIMARY KEY (name, version)
            );
            CREATE TABLE order_template_files (
                name TEXT NOT NULL,
                version BIGINT NOT NULL,
                path TEXT NOT NULL,
                bytes BYTEA NOT NULL,
                PRIMARY KEY (name, version, path),
                FOREIGN KEY (name, version) REFERENCES order_template_versions ON DELETE CASCADE
            );
            ALTER TABLE orders ADD COLUMN template_version BIGINT NOT NULL DEFAULT 0;
            """

    /// Failed console sign-ins of the last minute, under the SHA-256 of what they count against (an
    /// address, an account), so every instance behind a load balancer applies one limit, not one
    /// each, and the table holds no address or e-mail. Rows older than the limit's minute are
    /// deleted with each new failure.
    static let signInFailures = Migration(version: 23, name: "sign-in failures", sqlite: signInFailuresScript, postgres: signInFailuresScript)

    private static let signInFailuresScript = """
            CREATE TABLE sign_in_failures (
                key_hash TEXT NOT NULL,
                failed_at BIGINT NOT NULL
            );
            CREATE INDEX sign_in_failures_key ON sign_in_failures (key_hash, failed_at);
            CREATE INDEX sign_in_failures_at ON sign_in_failures (failed_at);
            """

    /// A roll-out rewrites every pass's version, tag and time. While one of those is indexed, each
    /// moved pass writes a new entry in every index of the passes; with none indexed, and room on its
    /// page, PostgreSQL updates the row in place of its page (a heap-only update) and writes no index
    /// at all: a million-pass roll-out's update took 7.1–8.2 µs a pass against 18.8–24.7 (BENCHMARKS.md).
    ///
    /// So the two indexes that held a changing column go. How many passes each template has on each
    /// version (what the roll-out worker asks, and each template's page shows) is kept by the database
    /// itself in `template_version_passes`, by triggers on the passes, so no writer (and no script
    /// that writes the table directly) can leave it wrong; on PostgreSQL one statement-level trigger
    /// adds each statement's changes at once. Retention finds voided passes by
    /// `voided_changed_at`, a column generated from `voided` and `updated_at` that stays `NULL` (so
    /// unchanged) for a pass not voided. On PostgreSQL the passes' pages are filled half, so a page
    /// has room for the new version of each of its passes. The table is rewritten here at that fill
    /// (for the generated column), and is then no larger than a full one after its first roll-out.
    static let heapOnlyPassUpdates = Migration(
        version: 24, name: "heap-only pass updates", sqlite: heapOnlyPassUpdatesSQLite, postgres: heapOnlyPassUpdatesPostgres)

    /// A pass's history names its pass by key, as the event log and the audit trail do, without a
    /// foreign key to it. Its rows are written only beside their pass's update, in the transaction
    /// that holds the pass locked (``WalletStore/recordUpdates(_:at:in:)``); a pass is never deleted
    /// (an erasure keeps its row as a tombstone and deletes the history itself); retention prunes by
    /// age. So the key's check proved nothing, and on PostgreSQL it cost a query of its own per row
    /// (a foreign key's trigger: an executor started to lock the pass's row again). In a
    /// million-pass roll-out the checks were 10 % of PostgreSQL's CPU (`perf record -a`), and the
    /// history's insert cost 1.83–1.95 times the audit trail's, 0.83–0.84 without them
    /// (BENCHMARKS.md). SQLite's check is a probe of the passes' primary key in
    /// the same process, and dropping a key there means copying the table, so it stays.
    static let historyWithoutForeignKey = Migration(
        version: 25, name: "history without a foreign key", sqlite: "",
        postgres: "ALTER TABLE pass_updates DROP CONSTRAINT pass_updates_pass_type_identifier_serial_number_fkey;")

    private static let templateVersionPassesTable = """
            DROP INDEX passes_template_version;
            DROP INDEX passes_voided_updated;
            CREATE TABLE template_version_passes (
                template TEXT NOT NULL,
                version BIGINT NOT NULL,
                passes BIGINT NOT NULL,
                PRIMARY KEY (template, version)
            );
            INSERT INTO template_version_passes (template, version, passes)
            SELECT template, template_version, COUNT(*) FROM passes GROUP BY template, template_version;
            """

    private static let heapOnlyPassUpdatesSQLite = templateVersionPassesTable + """
            ALTER TABLE passes ADD COLUMN voided_changed_at INTEGER GENERATED ALWAYS AS (CASE WHEN voided THEN updated_at END) VIRTUAL;
            CREATE INDEX passes_voided_changed ON passes (voided_changed_at) WHERE voided_changed_at IS NOT NULL;
            CREATE TRIGGER passes_counted_inserted AFTER INSERT ON passes BEGIN
                INSERT INTO template_version_passes (template, version, passes) VALUES (new.template, new.template_version, 1)
                ON CONFLICT (template, version) DO UPDATE SET passes = passes + 1;
            END;
            CREATE TRIGGER passes_counted_moved AFTER UPDATE OF template, template_version ON passes
            WHEN old.template IS NOT new.template OR old.template_version IS NOT new.template_version BEGIN
                UPDATE template_version_passes SET passes = passes - 1 WHERE template = old.template AND version = old.template_version;
                INSERT INTO template_version_passes (template, version, passes) VALUES (new.template, new.template_version, 1)
                ON CONFLICT (template, version) DO UPDATE SET passes = passes + 1;
            END;
            CREATE TRIGGER passes_counted_deleted AFTER DELETE ON passes BEGIN
                UPDATE template_version_passes SET passes = passes - 1 WHERE template = old.template AND version = old.template_version;
            END;
            """

    // Each statement changes its counts in (template, version) order, so two statements never lock
    // the same two counts in opposite orders.
    private static let heapOnlyPassUpdatesPostgres = """
            ALTER TABLE passes SET (fillfactor = 50);
            """ + templateVersionPassesTable + """
            ALTER TABLE passes ADD COLUMN voided_changed_at BIGINT GENERATED ALWAYS AS (CASE WHEN voided THEN updated_at END) STORED;
            CREATE INDEX passes_voided_changed ON passes (voided_changed_at) WHERE voided_changed_at IS NOT NULL;
            CREATE FUNCTION count_template_version_passes() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'INSERT' THEN
                    INSERT INTO template_version_passes (template, version, passes)
                    SELECT template, template_version, COUNT(*) FROM new_passes GROUP BY 1, 2 ORDER BY 1, 2
                    ON CONFLICT (template, version) DO UPDATE SET passes = template_version_passes.passes + excluded.passes;
                ELSIF TG_OP = 'DELETE' THEN
                    UPDATE template_version_passes SET passes = template_version_passes.passes - gone.passes
                    FROM (SELECT template, template_version AS version, COUNT(*) AS passes FROM old_passes GROUP BY 1, 2 ORDER BY 1, 2) AS gone
                    WHERE template_version_passes.template = gone.template AND template_version_passes.version = gone.version;
                ELSE
                    INSERT INTO template_version_passes (template, version, passes)
                    SELECT template, version, SUM(change) FROM (
                        SELECT template, template_version AS version, 1 AS change FROM new_passes
                        UNION ALL SELECT template, template_version, -1 FROM old_passes) AS changes
                    GROUP BY 1, 2 HAVING SUM(change) <> 0 ORDER BY 1, 2
                    ON CONFLICT (template, version) DO UPDATE SET passes = template_version_passes.passes + excluded.passes;
                END IF;
                RETURN NULL;
            END
            $$;
            CREATE TRIGGER passes_counted_inserted AFTER INSERT ON passes REFERENCING NEW TABLE AS new_passes
                FOR EACH STATEMENT EXECUTE FUNCTION count_template_version_passes();
            CREATE TRIGGER passes_counted_moved AFTER UPDATE ON passes REFERENCING OLD TABLE AS old_passes NEW TABLE AS new_passes
                FOR EACH STATEMENT EXECUTE FUNCTION count_template_version_passes();
            CREATE TRIGGER passes_counted_deleted AFTER DELETE ON passes REFERENCING OLD TABLE AS old_passes
                FOR EACH STATEMENT EXECUTE FUNCTION count_template_version_passes();
            """
}
