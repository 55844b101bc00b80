#!/usr/bin/env bash
# Programme analytics on PostgreSQL: a year's report from the rollups, and what counting costs a register.
#
#   Benchmarks/analytics.sh [EVENTS] [SECONDS] [ROUNDS]   (defaults: 1000000 events' worth of rollups, 10 s per wrk run, 3 rounds)
#   PASSWRIGHT_BIN=/path/to/passwright Benchmarks/analytics.sh
#
# (a) Starts a throwaway PostgreSQL and `passwright serve --push off` (release build) with the loyalty
# sample template, then loads the rollups a year of EVENTS events leaves: 365 days × 5 templates × 2
# live versions × 10 metrics, the counts summing to EVENTS; today's counters on all 8 shards, earlier
# days first unfolded (every shard, as if the retention worker never ran: the worst case) and then
# folded into shard 0 as the worker leaves them. wrk (1 connection) measures GET /api/v1/analytics for
# the 365 days up to today, per day and per week, for every template and for one: p50 and p99. Then
# EVENTS rows are added to the event log and the year's report measured again: the figure does not
# move, because the report reads `analytics_rollups` and `template_versions` only (their EXPLAIN is
# printed: no `events`, no `passes`).
# (b) The server CPU per register request (a new device each request, wrk -t2 -c32) with the counters
# written (`serve --analytics on`, the default) and without (`--analytics off`), one server after the
# other on the same database and machine, alternated ROUNDS times; the ratio on/off is the cost of
# counting (and PostgreSQL's CPU per register beside it).
set -euo pipefail
cd "$(dirname "$0")/.."
events=${1:-1000000}
seconds=${2:-10}
rounds=${3:-3}
command -v wrk >/dev/null || apt-get install -y -qq wrk >/dev/null
source Benchmarks/lib/setup.sh
bench_setup analytics
port=18094
serve_loyalty_on_postgres $port
export PASS_TYPE=$pass_type SERIAL=bench-1 TOKEN=benchtoken-0123456789abcdef
curl -sf -X POST "$PASSWRIGHT_SERVER/api/v1/passes" "${admin[@]}" -H "Content-Type: application/json" \
  -d "{\"template\":\"loyalty\",\"serialNumber\":\"$SERIAL\",\"data\":{\"authenticationToken\":\"$TOKEN\",\"member\":{\"id\":\"M-1\",\"name\":\"Ada\"},\"points\":10,\"tier\":\"Gold\"}}" >/dev/null
tick_us=$((1000000 / $(getconf CLK_TCK)))
today=$(( $(date -u +%s) / 86400 ))
from=$(date -u -d "@$(( (today - 364) * 86400 ))" +%F)
to=$(date -u -d "@$(( today * 86400 ))" +%F)

# The rollups of a year: 36,500 cells a template-version pair … each cell's count about EVENTS / cells.
cells=$((365 * 5 * 2 * 10))
per_cell=$(( events / cells ))
sql "INSERT INTO analytics_rollups (day, template, version, metric, shard, count)
     SELECT d, t, v, m, s, CASE WHEN s = 0 THEN $per_cell - 7 * ($per_cell / 8) ELSE $per_cell / 8 END
     FROM generate_series($today - 364, $today) AS d,
          unnest(ARRAY['loyalty', 'coupon', 'event', 'membership', 'gift']) AS t,
          generate_series(1, 2) AS v,
          unnest(ARRAY['pass.issued', 'pass.updated', 'pass.installed', 'pass.removed', 'devices.added', 'devices.removed',
                       'push.sent', 'push.failed:Unregistered', 'holder.page_view', 'holder.download']) AS m,
          generate_series(0, 7) AS s
     ON CONFLICT (day, template, version, metric, shard) DO UPDATE SET count = analytics_rollups.count + excluded.count"
sql "ANALYZE analytics_rollups"
loaded=$(sql "SELECT SUM(count) FROM analytics_rollups")

# latency NAME QUERY: wrk with one connection; prints a table row with requests/s, p50 and p99.
latency() {
  local out
  out=$(wrk -t1 -c1 -d"${seconds}s" --latency -H "Authorization: Bearer $PASSWRIGHT_ADMIN_TOKEN" "$PASSWRIGHT_SERVER/api/v1/analytics?$2")
  grep -q "Non-2xx" <<<"$out" && { echo "GET /api/v1/analytics?$2 failed: $out" >&2; exit 1; }
  echo "| $1 | $(awk '/Requests\/sec/ {print int($2)}' <<<"$out") | $(awk '$1 == "50%" {print $2}' <<<"$out") | $(awk '$1 == "99%" {print $2}' <<<"$out") |"
}
report_rows() {  # report_rows LABEL
  latency "$1, 365 days by day, every template" "from=$from&to=$to"
  latency "$1, 365 days by day, one template" "template=loyalty&from=$from&to=$to"
  latency "$1, 53 weeks by week, every template" "from=$from&to=$to&interval=week"
}
echo "rollups: $(sql "SELECT COUNT(*) FROM analytics_rollups") rows counting $loaded events, $(sql "SELECT pg_size_pretty(pg_total_relation_size('analytics_rollups'))")"
echo
echo "| GET /api/v1/analytics | requests/s | p50 | p99 |"
echo "|---|---|---|---|"
report_rows "unfolded (8 shards a counter)"
# Fold every day before today into shard 0, as the retention worker's compactAnalytics does.
sql "WITH folded AS (DELETE FROM analytics_rollups WHERE day < $today AND shard > 0 RETURNING day, template, version, metric, count)
     INSERT INTO analytics_rollups (day, template, version, metric, shard, count)
     SELECT day, template, version, metric, 0, SUM(count) FROM folded GROUP BY day, template, version, metric
     ON CONFLICT (day, template, version, metric, shard) DO UPDATE SET count = analytics_rollups.count + excluded.count"
sql "VACUUM ANALYZE analytics_rollups"
folded_rows=$(sql "SELECT COUNT(*) FROM analytics_rollups")
report_rows "folded ($folded_rows rows)"
sql "INSERT INTO events (occurred_at, type, pass_type_identifier, serial_number, template, actor, payload)
     SELECT ($today - 364) * 86400000::bigint + n * (31536000000 / $events), 'pass.updated', '$pass_type', 'bench-' || (n % 50000), 'loyalty', 'api', '{}'
     FROM generate_series(1, $events) AS n"
sql "ANALYZE events"
echo "| — the same, after $(sql "SELECT COUNT(*) FROM events") rows in the event log ($(sql "SELECT pg_size_pretty(pg_total_relation_size('events'))")) | | | |"
report_rows "folded, with the event log full"
echo
echo "The report's statements (EXPLAIN): the tables they read"
for statement in \
  "SELECT day, template, version, metric, CAST(SUM(count) AS BIGINT) AS count FROM analytics_rollups WHERE day >= $((today - 364)) AND day <= $today GROUP BY day, template, version, metric ORDER BY day, template, version, metric" \
  "SELECT metric, CAST(SUM(count) AS BIGINT) AS count FROM analytics_rollups WHERE day < $((today - 364)) AND metric IN ('pass.installed', 'pass.removed', 'devices.added', 'devices.removed') GROUP BY metric" \
  "SELECT template, metric, CAST(SUM(count) AS BIGINT) AS count FROM analytics_rollups WHERE metric IN ('pass.installed', 'pass.removed', 'devices.added', 'devices.removed') GROUP BY template, metric" \
  "SELECT name, version, uploaded_at FROM template_versions WHERE uploaded_at >= $(( (today - 364) * 86400000 )) AND uploaded_at < $(( (today + 1) * 86400000 )) ORDER BY uploaded_at, name, version"; do
  echo "- $(sql "EXPLAIN $statement" | grep -oE '(Scan|Scan using [a-z_]+) on [a-z_]+' | sort -u | paste -sd ';' -)"
done

# (b) Register CPU with and without the counters, the same database, servers one after the other.
kill "$server"; wait "$server" 2>/dev/null || true; server=
cpu_ticks() {  # cpu_ticks PID...: user + system clock ticks, summed
  local total=0 pid
  for pid in "$@"; do total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0))); done
  echo "$total"
}
postgres_pids() { local postmaster; postmaster=$(head -1 "$pg_dir/data/postmaster.pid"); echo "$postmaster" $(pgrep -P "$postmaster"); }
register_cpu() {  # register_cpu on|off: sets rps, us (server user+system µs per register) and db_us (PostgreSQL's)
  $bin serve --port "$port" --database "$pg_url" --templates "$work/templates" --identities "$work/ids" --data-dir "$work/data" \
    --public-url https://passes.example.test --push off --analytics "$1" --log-level error 2>>"$work/serve.log" &
  server=$!
  for _ in $(seq 100); do curl -sf "$PASSWRIGHT_SERVER/healthz" >/dev/null && break; sleep 0.2; done
  # A short warm-up, then the measured run.
  wrk -t2 -c32 -d2s -s Benchmarks/wrk/register.lua "$PASSWRIGHT_SERVER/" >/dev/null
  local before after db_before db_after out requests database_pids
  database_pids=$(postgres_pids)
  before=$(cpu_ticks "$server"); db_before=$(cpu_ticks $database_pids)
  out=$(wrk -t2 -c32 -d"${seconds}s" -s Benchmarks/wrk/register.lua "$PASSWRIGHT_SERVER/")
  after=$(cpu_ticks "$server"); db_after=$(cpu_ticks $database_pids)
  requests=$(awk '/requests in/ {print $1}' <<<"$out")
  rps=$(awk '/Requests\/sec/ {print int($2)}' <<<"$out")
  us=$(( (after - before) * tick_us / requests ))
  db_us=$(( (db_after - db_before) * tick_us / requests ))
  kill "$server"; wait "$server" 2>/dev/null || true; server=
  sql "DELETE FROM registrations WHERE device_library_identifier LIKE 'bench-%-%'; DELETE FROM devices WHERE device_library_identifier LIKE 'bench-%-%'"
}
echo
echo "| register (POST, new device each time) | requests/s | server CPU per request (user + system) | PostgreSQL CPU per request |"
echo "|---|---|---|---|"
declare -a on off db_on db_off
for round in $(seq "$rounds"); do
  register_cpu off; off+=("$us"); db_off+=("$db_us"); echo "| --analytics off, round $round | $rps | $us µs | $db_us µs |"
  register_cpu on; on+=("$us"); db_on+=("$db_us"); echo "| --analytics on, round $round | $rps | $us µs | $db_us µs |"
done
echo
python3 -c "
on, off, db_on, db_off = [$(IFS=,; echo "${on[*]}")], [$(IFS=,; echo "${off[*]}")], [$(IFS=,; echo "${db_on[*]}")], [$(IFS=,; echo "${db_off[*]}")]
print(f'register server CPU with counters / without: {sum(on) / sum(off):.3f} (rounds: ' + ', '.join(f'{a / b:.3f}' for a, b in zip(on, off)) + ')')
print(f'register PostgreSQL CPU with counters / without: {sum(db_on) / sum(db_off):.3f}')"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); binary $bin"
