#!/usr/bin/env bash
# Programme analytics on PostgreSQL: a year's report from the rollups, and what counting costs a register.
#
#   Benchmarks/analytics.sh [EVENTS] [SECONDS] [ROUNDS]   (defaults: 1000000 events' worth of rollups, 10 s per wrk run, 4 rounds)
#   PASSWRIGHT_BIN=/path/to/passwright Benchmarks/analytics.sh
#   PARTS=b Benchmarks/analytics.sh       # only (b); PARTS=a only (a); both by default
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
# (b) The server CPU per register request (a new device each request) with the counters written
# (`serve --analytics on`, the default) and without (`--analytics off`): two servers on the same
# database, loaded at the same time by a wrk each, ROUNDS times, swapping ports every round; the
# ratio on/off is the cost of counting. (One after the other, the shared machine's load moved the
# ratio by ±10 % between rounds; side by side without the swap, an A/A run showed a 0–11 % bias.)
set -euo pipefail
cd "$(dirname "$0")/.."
events=${1:-1000000}
seconds=${2:-10}
rounds=${3:-4}
parts=${PARTS:-ab}
command -v wrk >/dev/null || apt-get install -y -qq wrk >/dev/null
source Benchmarks/lib/setup.sh
bench_setup analytics
port=18094
serve_loyalty_on_postgres $port
export PASS_TYPE=$pass_type SERIAL=bench-1 TOKEN=benchtoken-0123456789abcdef
curl -sf -X POST "$PASSWRIGHT_SERVER/api/v1/passes" "${admin[@]}" -H "Content-Type: application/json" \
  -d "{\"template\":\"loyalty\",\"serialNumber\":\"$SERIAL\",\"data\":{\"authenticationToken\":\"$TOKEN\",\"member\":{\"id\":\"M-1\",\"name\":\"Ada\"},\"points\":10,\"tier\":\"Gold\"}}" >/dev/null
today=$(( $(date -u +%s) / 86400 ))
from=$(date -u -d "@$(( (today - 364) * 86400 ))" +%F)
to=$(date -u -d "@$(( today * 86400 ))" +%F)

if [[ $parts == *a* ]]; then
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

fi

# (b) Register CPU with and without the counters: two servers on the same database at once, one
# `--analytics off` and one `--analytics on`, each loaded by its own wrk (-t1 -c16) over the same
# seconds, so the machine's other work weighs on both alike; ROUNDS runs, the two swapping places.
[[ $parts == *b* ]] || exit 0
kill "$server"; wait "$server" 2>/dev/null || true; server=
busy_ticks() { local t; read -r -a t < <(cpu_ticks "$1"); echo $((t[0] + t[1])); }
start_server() {  # start_server PORT on|off: sets started (its pid)
  $bin serve --port "$1" --database "$pg_url" --templates "$work/templates" --identities "$work/ids" --data-dir "$work/data" \
    --public-url https://passes.example.test --push off --analytics "$2" --log-level error >>"$work/serve.out" 2>>"$work/serve.log" &
  started=$!
}
stop_servers() { for pid in ${server:-} ${pushers[@]:-}; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; server=; pushers=(); }
# load PORT PREFIX DURATION: wrk's register run against one of the servers; its report in $work/wrk-PREFIX
load() { DEVICE_PREFIX=$2 wrk -t1 -c16 -d"$3" -s Benchmarks/wrk/register.lua "http://127.0.0.1:$1/" >"$work/wrk-$2"; }
echo
echo "| register (POST, new device each time), both servers at once | off: port | off: requests/s | off: server CPU per request | on: requests/s | on: server CPU per request | on / off |"
echo "|---|---|---|---|---|---|---|"
ratios=()
for round in $(seq "$rounds"); do
  # The two servers swap ports (and which is started and loaded first) every round: an A/A run of
  # this harness (both off) showed up to 11 % between the two places, which the swap cancels.
  off_port=$port on_port=$((port + 1))
  [ $((round % 2)) = 0 ] && off_port=$((port + 1)) on_port=$port
  sql "DELETE FROM registrations WHERE device_library_identifier LIKE 'bench-%-%'; DELETE FROM devices WHERE device_library_identifier LIKE 'bench-%-%'"
  start_server $off_port off; server=$started
  start_server $on_port on; pushers=("$started")
  for p in $port $((port + 1)); do
    for _ in $(seq 100); do curl -sf "http://127.0.0.1:$p/healthz" >/dev/null && break; sleep 0.2; done
    curl -sf "http://127.0.0.1:$p/healthz" >/dev/null || { echo "the server on port $p did not start:" >&2; tail -5 "$work/serve.log" >&2; exit 1; }
  done
  load $port bench-warm1 2s & warm_a=$!
  load $((port + 1)) bench-warm2 2s & warm_b=$!
  wait $warm_a $warm_b
  off_before=$(busy_ticks "$server"); on_before=$(busy_ticks "${pushers[0]}")
  load $off_port bench-off "${seconds}s" & off_load=$!
  load $on_port bench-on "${seconds}s" & on_load=$!
  wait $off_load $on_load
  off_after=$(busy_ticks "$server"); on_after=$(busy_ticks "${pushers[0]}")
  stop_servers
  off_requests=$(awk '/requests in/ {print $1}' "$work/wrk-bench-off"); on_requests=$(awk '/requests in/ {print $1}' "$work/wrk-bench-on")
  off_us=$(( (off_after - off_before) * tick_us / off_requests )); on_us=$(( (on_after - on_before) * tick_us / on_requests ))
  ratio=$(python3 -c "print(f'{$on_us / $off_us:.3f}')"); ratios+=("$ratio")
  echo "| round $round | $off_port | $(awk '/Requests\/sec/ {print int($2)}' "$work/wrk-bench-off") | $off_us µs | $(awk '/Requests\/sec/ {print int($2)}' "$work/wrk-bench-on") | $on_us µs | $ratio |"
done
echo
python3 -c "
import statistics
ratios = [$(IFS=,; echo "${ratios[*]}")]
pairs = [(ratios[i] * ratios[i + 1]) ** 0.5 for i in range(0, len(ratios) - 1, 2)]
print(f'register server CPU with counters / without: median {statistics.median(ratios):.3f} over {len(ratios)} rounds (min {min(ratios):.3f}, max {max(ratios):.3f}); '
      + 'per swapped pair (geometric mean): ' + ', '.join(f'{p:.3f}' for p in pairs))"
echo "counted: $(sql "SELECT COALESCE(SUM(count), 0) FROM analytics_rollups WHERE metric = 'devices.added' AND day = $today") devices.added today (the 'on' server's registers and the bench pass's)"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); binary $bin"
