#!/usr/bin/env bash
# Rolling a new template version out to every pass, on PostgreSQL.
#
#   Benchmarks/templates.sh [PASSES] [REGISTRATIONS]      (defaults: 100000 and 200000)
#   PASSWRIGHT_BIN=/path/to/passwright Benchmarks/templates.sh   # measure that binary
#
# Starts a throwaway PostgreSQL (port 55498) and `passwright serve --push off` (release build) with
# the loyalty sample template imported as version 1, issues one pass through the API and clones it in
# SQL into PASSES passes (each with its own serial, token and update tag, at version 1), with
# REGISTRATIONS devices each registered for one of them. Then uploads version 2 (a changed label)
# with `passwright templates push` and measures until no pass is behind: wall time (polling
# GET /api/v1/templates/loyalty), the server's own `template rolled out` figures (seconds, batches,
# longest batch), the pushes queued (push_outbox rows; --push off leaves them queued) and the
# server's peak RSS (VmHWM). Prints a markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
passes=${1:-100000}
registrations=${2:-200000}
source Benchmarks/lib/setup.sh
bench_setup templates
serve_loyalty_on_postgres 18098
curl -sf -X POST "$PASSWRIGHT_SERVER/api/v1/passes" "${admin[@]}" -H "Content-Type: application/json" \
  -d '{"template":"loyalty","serialNumber":"seed","data":{"member":{"id":"M-1","name":"Ada"},"points":10,"tier":"Gold"}}' >/dev/null

# The seed pass cloned into PASSES passes and REGISTRATIONS registrations, one statement each.
seed_started=$SECONDS
sql "INSERT INTO passes (pass_type_identifier, serial_number, template, data, overrides, authentication_token,
                         update_tag, voided, created_at, updated_at, template_version)
     SELECT p.pass_type_identifier, 'bench-' || n, p.template, p.data, p.overrides, md5('token-' || n) || md5('salt-' || n),
            nextval('update_tag_sequence'), FALSE, p.created_at, p.updated_at, p.template_version
     FROM passes p, generate_series(1, $passes) AS n WHERE p.serial_number = 'seed';
     DELETE FROM passes WHERE serial_number = 'seed';
     INSERT INTO devices (device_library_identifier, push_token, updated_at)
     SELECT 'device-' || n, md5('push-' || n) || md5('token-' || n), 0 FROM generate_series(1, $registrations) AS n;
     INSERT INTO registrations (device_library_identifier, pass_type_identifier, serial_number, created_at)
     SELECT 'device-' || n, '$pass_type', 'bench-' || (1 + (n - 1) % $passes), 0 FROM generate_series(1, $registrations) AS n;
     ANALYZE;"
seed_seconds=$((SECONDS - seed_started))
rss_before=$(awk '/VmHWM/ {print int($2 / 1024)}' "/proc/$server/status")

# Version 2: the primary field's label changes.
roll_out_new_version 600
outbox=$(sql "SELECT count(*) FROM push_outbox")
advanced=$(sql "SELECT count(*) FROM passes WHERE template_version = 2")

echo "| measure | value |"
echo "|---|---|"
echo "| passes / registrations seeded (SQL, ${seed_seconds} s) | $passes / $registrations |"
echo "| upload (\`templates push\`) | $(head -n 1 "$work/push.out") |"
echo "| passes at version 2 afterwards | $advanced |"
echo "| time until the roll-out is done (upload to the server's log line; then passesBehind = 0) | $(printf '%.2f' "$wall") s |"
echo "| roll-out as the server logs it | $(field seconds) s in $(field batches) batches of $(field passes) passes |"
echo "| longest batch (longest any roll-out transaction held its locks) | $(field longestBatchSeconds) s |"
echo "| pushes queued (push_outbox rows) | $outbox (server log: $(field pushesQueued)) |"
echo "| server peak RSS (VmHWM) before the upload / after the roll-out | $rss_before MiB / $rss_peak MiB |"
echo
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); PostgreSQL $(sql 'SHOW server_version') (fsync off), same machine"
