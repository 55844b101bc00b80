#!/usr/bin/env bash
# Cost at a million passes, on PostgreSQL: does any hot path grow with the data?
#
#   Benchmarks/scale.sh [PASSES] [REGISTRATIONS] [SECONDS]     (defaults: 1000000, 5000000, 10)
#   PASSWRIGHT_BIN=/path/to/passwright Benchmarks/scale.sh
#   PERF_DATA=FILE Benchmarks/scale.sh ...     (also records the server over the roll-out:
#                                               `perf record --call-graph dwarf` into FILE)
#   PERF_DATA=FILE PERF_ALL=1 Benchmarks/scale.sh ...
#                                              (records every process instead, PostgreSQL's
#                                               backends with the server: `perf report --sort comm,dso`)
#   POSTGRES_OPTIONS="-c shared_buffers=6GB -c max_wal_size=16GB" Benchmarks/scale.sh ...
#                                              (settings for the throwaway PostgreSQL; its defaults
#                                               otherwise, as a fresh install has them)
#
# Starts a throwaway PostgreSQL (on a free port) and `passwright serve --push off` (release build) with
# the loyalty sample template. On the small database (five passes, one device holding all five) wrk
# measures list serials,
# get pass and register; then the pass is cloned in SQL into PASSES passes and REGISTRATIONS
# registrations (REGISTRATIONS / 5 devices with five passes each, as phones hold several passes of a
# programme), ANALYZEd and vacuumed, and the same three are measured again, each as a ratio to its small-database
# figure. It prints EXPLAIN (ANALYZE, BUFFERS) of list serials for a seeded device, the database and
# table sizes, measures one CMS signature (`passwright bench`), then rolls a new template version out
# to every pass (wall time, the server's batches and longest batch, its planning and writing seconds,
# the server's and PostgreSQL's CPU against the cores and in signatures a pass, PostgreSQL's time by
# statement from
# pg_stat_statements, the passes' updates and how many were heap-only, pushes queued, peak RSS), lets two `passwright serve --push on` instances drain
# the roll-out's pushes from the shared outbox to nginx (Benchmarks/lib/apns-receiver.sh: pushes/s,
# the split between the two, requests received against pushes queued), then times PostgreSQL writing
# every row the roll-out wrote by itself (one statement per kind over every pass, rolled back: the
# rows' own floor, against the roll-out's PostgreSQL CPU), and extrapolates the size to 10M passes and 50M
# registrations from the measured bytes per pass and per registration (labelled as such).
set -euo pipefail
cd "$(dirname "$0")/.."
passes=${1:-1000000}
registrations=${2:-5000000}
seconds=${3:-10}
command -v wrk >/dev/null || apt-get install -y -qq wrk >/dev/null
source Benchmarks/lib/setup.sh
bench_setup scale
# pg_stat_statements, to say where the roll-out's database time goes.
export POSTGRES_OPTIONS="-c shared_preload_libraries=pg_stat_statements ${POSTGRES_OPTIONS:-}"
serve_loyalty_on_postgres 18096
export PASS_TYPE=$pass_type SERIAL=bench-1 TOKEN=benchtoken-0123456789abcdef
curl -sf -X POST "$PASSWRIGHT_SERVER/api/v1/passes" "${admin[@]}" -H "Content-Type: application/json" \
  -d "{\"template\":\"loyalty\",\"serialNumber\":\"$SERIAL\",\"data\":{\"authenticationToken\":\"$TOKEN\",\"member\":{\"id\":\"M-1\",\"name\":\"Ada\"},\"points\":10,\"tier\":\"Gold\"}}" >/dev/null
curl -sf -X POST "$PASSWRIGHT_SERVER/wallet/v1/devices/bench-device/registrations/$pass_type/$SERIAL" \
  -H "Authorization: ApplePass $TOKEN" -d '{"pushToken":"00ff"}' >/dev/null

clone_passes() {  # clone_passes FIRST LAST: the bench pass as scale-FIRST … scale-LAST
  sql "INSERT INTO passes (pass_type_identifier, serial_number, template, data, overrides, authentication_token,
                           update_tag, voided, created_at, updated_at, template_version)
       SELECT p.pass_type_identifier, 'scale-' || lpad(n::text, 8, '0'), p.template, p.data, p.overrides,
              md5('token-' || n) || md5('salt-' || n), nextval('update_tag_sequence'), FALSE, p.created_at, p.updated_at, p.template_version
       FROM passes p, generate_series($1, $2) AS n WHERE p.serial_number = '$SERIAL'"
}
# The measured device holds five passes of the programme, on the small database and the large alike.
clone_passes 1 4
sql "INSERT INTO registrations (device_library_identifier, pass_type_identifier, serial_number, created_at)
     SELECT 'bench-device', '$pass_type', 'scale-' || lpad(n::text, 8, '0'), 0 FROM generate_series(1, 4) AS n"

declare -A small large
measure() {  # measure ARRAY: fills ARRAY[list|get|register] with "rps p99"
  local -n into=$1
  run() {
    local out
    out=$(wrk -t2 -c32 -d"${seconds}s" --latency ${2:+-s "$2"} "$1")
    echo "$(awk '/Requests\/sec/ {print int($2)}' <<<"$out") $(awk '$1 == "99%" {print $2}' <<<"$out")"
  }
  into[list]=$(run "$PASSWRIGHT_SERVER/wallet/v1/devices/bench-device/registrations/$pass_type")
  into[get]=$(run "$PASSWRIGHT_SERVER/wallet/v1/passes/$pass_type/$SERIAL" Benchmarks/wrk/get-pass.lua)
  into[register]=$(run "$PASSWRIGHT_SERVER/" Benchmarks/wrk/register.lua)
}
measure small
sql "DELETE FROM registrations WHERE device_library_identifier LIKE 'bench-%-%'; DELETE FROM devices WHERE device_library_identifier LIKE 'bench-%-%'"

# The bench pass cloned into PASSES passes; REGISTRATIONS / 5 devices with five passes each.
devices=$((registrations / 5))
seed_started=$SECONDS
clone_passes 5 "$passes"
sql "INSERT INTO devices (device_library_identifier, push_token, updated_at)
     SELECT 'device-' || n, md5('push-' || n) || md5('token-' || n), 0 FROM generate_series(1, $devices) AS n"
sql "INSERT INTO registrations (device_library_identifier, pass_type_identifier, serial_number, created_at)
     SELECT 'device-' || d, '$pass_type', 'scale-' || lpad((1 + ((d - 1) * 5 + k) % $passes)::text, 8, '0'), 0
     FROM generate_series(1, $devices) AS d, generate_series(0, 4) AS k"
sql "ANALYZE"
seed_seconds=$((SECONDS - seed_started))
# Autovacuum's first pass over the freshly seeded tables (it wakes within a minute of a million
# inserted rows) would otherwise run during the large database's measures or the roll-out and take
# a core from them (in one run list serials measured 0.45 of the small database, in the next 1.11).
# A bulk load is vacuumed once before it serves; the time is printed apart from the seeding.
vacuum_started=$SECONDS
sql "VACUUM"
vacuum_seconds=$((SECONDS - vacuum_started))
measure large

db_size=$(sql "SELECT pg_size_pretty(pg_database_size(current_database()))")
db_bytes=$(sql "SELECT pg_database_size(current_database())")
table_bytes() { sql "SELECT pg_total_relation_size('$1')"; }
passes_bytes=$(table_bytes passes)
registrations_bytes=$(( $(table_bytes registrations) + $(table_bytes devices) ))
plan=$(sql "EXPLAIN (ANALYZE, BUFFERS)
  SELECT registrations.serial_number, passes.update_tag FROM registrations
  JOIN passes ON passes.pass_type_identifier = registrations.pass_type_identifier AND passes.serial_number = registrations.serial_number
  WHERE registrations.device_library_identifier = 'device-4242' AND registrations.pass_type_identifier = '$pass_type' AND passes.update_tag > 0
  ORDER BY registrations.serial_number")

# The machine's speed in the same run: one CMS signature's CPU (`passwright bench`, one core, the
# server idle), so that the roll-out's CPU a pass reads in signatures, and runs on a machine whose
# speed moves (the same build's server took 51–71 µs a pass in one session) can be compared.
signatures=$(signatures_per_second "$work/ids" "$pass_type")

# A template-wide change: version 2 rolled out to every pass.
rss_before=$(awk '/VmHWM/ {print int($2 / 1024)}' "/proc/$server/status")
sql "CREATE EXTENSION IF NOT EXISTS pg_stat_statements; SELECT pg_stat_statements_reset()" >/dev/null
passes_updates() { sql "SELECT n_tup_upd || ' ' || n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'passes'"; }
read -r updates_before hot_before < <(passes_updates)
# What the roll-out costs PostgreSQL's storage: its write-ahead log (how much of it full-page images,
# which every checkpoint makes the next change of each page write again), its checkpoints, the
# pages its backends had to write out themselves for want of a clean buffer, and the blocks read
# from outside shared buffers.
storage_counters() {
  sql "SELECT w.wal_fpi || ' ' || w.wal_bytes || ' ' || (b.checkpoints_timed + b.checkpoints_req) || ' ' || b.checkpoints_req
              || ' ' || b.buffers_backend || ' ' || (b.buffers_checkpoint + b.buffers_clean) || ' ' || d.blks_read || ' ' || d.blks_hit
       FROM pg_stat_wal w, pg_stat_bgwriter b, pg_stat_database d WHERE d.datname = current_database()"
}
read -r fpi_before wal_before checkpoints_before requested_before backend_before cleaned_before read_before hit_before < <(storage_counters)
# The server's and PostgreSQL's CPU over the roll-out: with both on this machine's cores, their sum
# against the cores × the wall time says whether the roll-out waits on CPU or on its own steps.
read -r server_user server_system < <(cpu_ticks "$server")
postgres_before=$(postgres_ticks)
profiler=
if [ -n "${PERF_DATA:-}" ]; then
  if [ -n "${PERF_ALL:-}" ]; then scope=(-a); else scope=(-p "$server"); fi
  perf record -F 300 --call-graph dwarf "${scope[@]}" -o "$PERF_DATA" >/dev/null 2>&1 &
  profiler=$!
  sleep 1  # attached before the upload
fi
roll_out_new_version 1800
if [ -n "$profiler" ]; then kill -INT "$profiler"; wait "$profiler" || true; fi
read -r user system < <(cpu_ticks "$server")
server_cpu=$(( (user + system - server_user - server_system) * tick_us ))
postgres_cpu=$(( ($(postgres_ticks) - postgres_before) * tick_us ))
# The statements that took most of PostgreSQL's time during the roll-out (execution, summed).
statements=$(psql -qAt -F ' | ' "$pg_url" -c "
  SELECT calls, round(total_exec_time::numeric / 1000, 1), round((total_exec_time / calls)::numeric * 1000),
         round(total_exec_time::numeric * 1000 / $passes, 1), left(regexp_replace(query, '\s+', ' ', 'g'), 90)
  FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%' ORDER BY total_exec_time DESC LIMIT 10")
outbox=$(sql "SELECT count(*) FROM push_outbox")

# The roll-out's pushes drained by two instances sharing the outbox, pushing to nginx. The --push off
# server stops first, so the two pushers are all there is.
kill "$server"; wait "$server" 2>/dev/null || true
# The passes' updates over the roll-out, and how many were heap-only (no index entry written): read
# once the server's connections have closed, which reports their counts to the statistics.
sleep 1
read -r updates_after hot_after < <(passes_updates)
read -r fpi_after wal_after checkpoints_after requested_after backend_after cleaned_after read_after hit_after < <(storage_counters)
passes_bytes_after=$(table_bytes passes)
server=
source Benchmarks/lib/apns-receiver.sh
start_apns_receiver nginx
pushers=()
for port in 18094 18095; do
  $bin serve --port $port --database "$pg_url" --templates "$work/templates" --identities "$work/ids" \
    --data-dir "$work/data-$port" --public-url https://passes.example.test --log-level error --quiet-hours off \
    --notification-spacing 0 --push-rate 100000 --push on --apns-url "https://127.0.0.1:$apns_port" \
    --apns-ca-file "$work/ids/dev-ca/root.pem" 2>"$work/serve-$port.log" &
  pushers+=($!)
done
drain_started=$(date +%s.%N)
drained=0
for _ in $(seq 3600); do  # one poll a second; the newline count costs next to nothing
  drained=$(wc -l <"$work/requests.jsonl" 2>/dev/null || echo 0)
  [ "$drained" -lt "$outbox" ] || break
  for pid in "${pushers[@]}"; do
    kill -0 "$pid" 2>/dev/null || { echo "a pushing instance exited; its log:" >&2; cat "$work"/serve-1809[45].log >&2; exit 1; }
  done
  sleep 1
done
sleep 2  # a push sent twice would arrive after the count was reached
received=$(wc -l <"$work/requests.jsonl")
left=$(sql "SELECT count(*) FROM push_outbox")
pushes_sent() { curl -sf "${admin[@]}" "http://127.0.0.1:$1/metrics" | awk '$1 == "passwright_pushes_sent" {print int($2)}'; }
sent_a=$(pushes_sent 18094)
sent_b=$(pushes_sent 18095)
read -r drain_seconds connections <<<"$(python3 - "$work/requests.jsonl" "$drain_started" <<'PY'
import json, sys
started, connections, last = float(sys.argv[2]), set(), 0.0
for line in open(sys.argv[1], encoding="utf-8"):
    record = json.loads(line)
    connections.add(record["connection"])
    last = max(last, record["time"])
print(f"{last - started:.1f} {len(connections)}")
PY
)"
kill "${pushers[@]}"; wait "${pushers[@]}" 2>/dev/null || true
pushers=()

# PostgreSQL's floor for every row the roll-out writes, with the outbox drained (as it is when a
# roll-out starts): in one transaction, rolled back, one statement for each kind of row, over every
# pass at once — the passes' update, an event, an audit row and a history row a pass, and the
# pushes of every registered device — with no client, no page and no lock between them. What the
# roll-out's PostgreSQL CPU spends beyond this is its statements' and pages' own cost.
rows_floor_ticks=$(postgres_ticks)
rows_floor=$(psql -qAt "$pg_url" <<SQL | awk '/^Time:/ {printf "%.1f ", $2 / 1000}'
\timing on
BEGIN;
UPDATE passes SET template_version = template_version + 1, update_tag = update_tag + 1;
INSERT INTO events (occurred_at, type, pass_type_identifier, serial_number, template, actor, payload)
  SELECT 0, 'pass.updated', pass_type_identifier, serial_number, template, 'template v3', '{"changes":[],"templateVersion":3}' FROM passes;
INSERT INTO audit_log (occurred_at, actor, source, address, action, target, changes)
  SELECT 0, 'template v3', 'system', NULL, 'pass.update', 'pass ' || pass_type_identifier || '/' || serial_number, '[]' FROM passes;
INSERT INTO pass_updates (pass_type_identifier, serial_number, update_tag, changed_at, source, changes)
  SELECT pass_type_identifier, serial_number, update_tag, 0, 'template v3', '[]' FROM passes;
INSERT INTO push_outbox (device_library_identifier, pass_type_identifier, push_token, generation, enqueued_at, attempts, next_attempt_at)
  SELECT registrations.device_library_identifier, registrations.pass_type_identifier, devices.push_token, 1, 0, 0, 0
  FROM registrations JOIN devices ON devices.device_library_identifier = registrations.device_library_identifier
  GROUP BY registrations.device_library_identifier, registrations.pass_type_identifier, devices.push_token
  ON CONFLICT (device_library_identifier, pass_type_identifier) DO UPDATE SET generation = push_outbox.generation + 1;
ROLLBACK;
SQL
)
sleep 1  # the session's backend reaped, so its CPU is counted
rows_floor_cpu=$(( ($(postgres_ticks) - rows_floor_ticks) * tick_us ))
read -r -a rows_floor_steps <<<"$rows_floor"

row() {  # row NAME KEY
  read -r small_rps small_p99 <<<"${small[$2]}"
  read -r large_rps large_p99 <<<"${large[$2]}"
  echo "| $1 | $small_rps ($small_p99) | $large_rps ($large_p99) | $(python3 -c "print(f'{$large_rps / $small_rps:.2f}')") |"
}
echo "| endpoint (wrk -t2 -c32 -d${seconds}s) | small database: req/s (p99) | $passes passes, $registrations registrations | ratio |"
echo "|---|---|---|---|"
row "list serials (GET, 200)" list
row "get pass (GET, 200 .pkpass)" get
row "register (POST, new device each time)" register
echo
echo "| measure | value |"
echo "|---|---|"
echo "| seeded in SQL | $passes passes, $devices devices, $registrations registrations in $seed_seconds s, then VACUUM in $vacuum_seconds s |"
echo "| database size | $db_size (passes $((passes_bytes / 1048576)) MiB, devices + registrations $((registrations_bytes / 1048576)) MiB, with indexes) |"
echo "| roll-out of version 2 to every pass (upload to the server's log line, then passesBehind = 0) | $(printf '%.1f' "$wall") s |"
echo "| roll-out as the server logs it | $(field seconds) s in $(field batches) batches; longest batch $(field longestBatchSeconds) s |"
echo "| of which: reading and planning pages (rendering, beside the writes) / writing them (the database's work; two pages at once, so their sum can exceed the wall time), overlapped | $(field planningSeconds) s / $(field writingSeconds) s |"
echo "| CPU over the roll-out: the server / PostgreSQL (µs a pass), and their sum against $(nproc) cores × the wall time | $((server_cpu / 1000000)) s ($((server_cpu / passes))) / $((postgres_cpu / 1000000)) s ($((postgres_cpu / passes))); $(python3 -c "print(f'{($server_cpu + $postgres_cpu) / 1e6 / ($(nproc) * $wall):.2f}')") of the cores |"
echo "| the roll-out's CPU a pass (server and PostgreSQL) in CMS signatures of this machine, same run (\`passwright bench\`: $(printf '%.0f' "$signatures")/s on one core) | $(python3 -c "print(f'{($server_cpu + $postgres_cpu) / $passes * $signatures / 1e6:.2f}')") |"
echo "| the passes' updates over the roll-out, and of them heap-only (no index written) | $((updates_after - updates_before)), $((hot_after - hot_before)) heap-only; the passes' size, with indexes, $((passes_bytes / 1048576)) MiB before and $((passes_bytes_after / 1048576)) MiB after |"
echo "| PostgreSQL's write-ahead log over the roll-out: bytes a pass, full-page images; checkpoints (requested by the log's size) | $(( (wal_after - wal_before) / passes )) B a pass ($(( (wal_after - wal_before) / 1048576 )) MiB), $((fpi_after - fpi_before)) full-page images; $((checkpoints_after - checkpoints_before)) checkpoints ($((requested_after - requested_before)) requested) |"
echo "| PostgreSQL's buffers over the roll-out: pages written by the backends themselves / by the checkpointer and background writer; blocks read from outside shared buffers, and hits | $((backend_after - backend_before)) / $((cleaned_after - cleaned_before)); $((read_after - read_before)) read, $((hit_after - hit_before)) hits |"
echo "| PostgreSQL's floor for every row the roll-out writes, one statement each over every pass, rolled back (outbox drained): the passes' version and tag / events / audit / history / pushes, and PostgreSQL's CPU for all of it | ${rows_floor_steps[1]} / ${rows_floor_steps[2]} / ${rows_floor_steps[3]} / ${rows_floor_steps[4]} / ${rows_floor_steps[5]} s; PostgreSQL's CPU $(python3 -c "print(f'{$rows_floor_cpu / 1e6:.1f} s ({$rows_floor_cpu / $passes:.0f} µs a pass) against {$postgres_cpu / 1e6:.1f} s ({$postgres_cpu / $passes:.0f}) over the roll-out')") |"
echo "| pushes queued by the roll-out (push_outbox rows; --push off) | $outbox |"
echo "| server peak RSS before / after the roll-out | $rss_before MiB / $rss_peak MiB |"
echo "| outbox drained by two instances to nginx (start to last push received) | $drained pushes in $drain_seconds s ($(python3 -c "print(f'{$drained / $drain_seconds:.0f}')")/s); $sent_a + $sent_b sent by the two over $connections connections; $received requests received for $outbox queued; $left rows left |"
python3 - "$passes_bytes" "$registrations_bytes" "$passes" "$registrations" "$wall" <<'PY'
import sys
passes_bytes, registrations_bytes, passes, registrations, wall = (float(x) for x in sys.argv[1:])
per_pass, per_registration = passes_bytes / passes, registrations_bytes / registrations
size = (per_pass * 10e6 + per_registration * 50e6) / 2**30
print(f"| extrapolated (not measured): 10M passes and 50M registrations | about {size:.0f} GiB at {per_pass:.0f} B per pass and "
      f"{per_registration:.0f} B per registration; a roll-out about {wall * 10 / 60:.0f} min at the measured rate |")
PY
echo
echo "PostgreSQL's time in the roll-out by statement (pg_stat_statements, execution only):"
echo
echo "| calls | seconds | µs per call | µs per pass | statement |"
echo "|---|---|---|---|---|"
while IFS= read -r line; do echo "| ${line//\`/} |"; done <<<"$statements"
echo
echo "EXPLAIN (ANALYZE, BUFFERS) of list serials for device-4242 (five passes):"
echo '```'
echo "$plan"
echo '```'
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); PostgreSQL $(sql 'SHOW server_version') (fsync off; shared_buffers $(sql 'SHOW shared_buffers'), max_wal_size $(sql 'SHOW max_wal_size')), same machine"
