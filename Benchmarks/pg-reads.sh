#!/usr/bin/env bash
# PostgreSQL's reads against SQLite's: on cores the server shares with the database, and with the
# database on cores of its own.
#
#   Benchmarks/pg-reads.sh [SECONDS] [ROUNDS]     (defaults: 10 s a measurement, 2 rounds)
#
# Issue #29 asks list serials and get pass on PostgreSQL for 0.6 of SQLite's requests/s. On one
# machine the two engines do not get the same CPU: SQLite runs inside the server, PostgreSQL's
# backends take turns with the server's threads on the same cores. So this measures three things in
# one run, each ROUNDS times, alternated:
#
# 1. shared: the server (release build) on every core, wrk -t2 -c32 beside it, list serials and get
#    pass on SQLite and on PostgreSQL (as Benchmarks/http.sh does), with the server's and
#    PostgreSQL's CPU per request from /proc;
# 2. alone: pgbench running list serials' own statement (WalletStore.updatedSerialsQuery, prepared,
#    the same device and type) with as many clients as serve opens read sessions on these cores:
#    what one list costs PostgreSQL when nothing else runs between its queries;
# 3. a core each: the server pinned to the first half of the cores (taskset), PostgreSQL and wrk to
#    the other half, both engines again: the server's CPU is the same for both, and PostgreSQL has
#    CPU of its own, as it has on a database host of its own when instances scale out.
#
# Prints a markdown table (requests/s, PostgreSQL's as a share of SQLite's in the same placement,
# CPU per request) and the machine. Needs at least 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
rounds=${2:-2}
cores=$(nproc)
[ "$cores" -ge 2 ] || { echo "pg-reads.sh needs at least 2 cores: it gives the server half of them" >&2; exit 2; }
command -v wrk >/dev/null || apt-get install -y -qq wrk >/dev/null
command -v /usr/bin/time >/dev/null || apt-get install -y -qq time >/dev/null
source Benchmarks/lib/setup.sh
bench_setup pg-reads
export PASS_TYPE=pass.dev.passwright.loyalty SERIAL=bench-1 TOKEN=benchtoken-0123456789abcdef
admin=bench-admin-token-0123456789
port=18097
$bin certs dev --out "$work/ids" --pass-type-id $PASS_TYPE >/dev/null
pg_url=$(scripts/postgres.sh start "$pg_dir")
# cpus FIRST LAST: taskset's list of those cores.
cpus() { if [ "$1" = "$2" ]; then echo "$1"; else echo "$1-$2"; fi; }
server_cpus=$(cpus 0 $((cores / 2 - 1)))
database_cpus=$(cpus $((cores / 2)) $((cores - 1)))
read_sessions=$((2 * cores))  # serve's daemon threads on PostgreSQL, each with its own read session
list_path="/wallet/v1/devices/bench-device/registrations/$PASS_TYPE"
get_path="/wallet/v1/passes/$PASS_TYPE/$SERIAL"

# pin_postgres CPUS: PostgreSQL's postmaster, so the backends it starts from now on, and its
# processes alive now on CPUS (a backend of a server just stopped may be gone already).
pin_postgres() {
  local pid pids
  read -r -a pids < <(postgres_pids)
  taskset -pc "$1" "${pids[0]}" >/dev/null
  for pid in "${pids[@]:1}"; do taskset -pc "$1" "$pid" >/dev/null 2>&1 || true; done
}

# measure ENGINE PLACEMENT ENDPOINT PATH [SCRIPT]: wrk (on the database's CPUs when PLACEMENT is
# "a core each") against the running server; appends "rps server_µs database_µs" to
# $work/ENGINE-PLACEMENT-ENDPOINT.
measure() {
  local pin=() before after db_before=0 db_after=0 out requests rps
  [ "$2" = apart ] && pin=(taskset -c "$database_cpus")
  "${pin[@]}" wrk -t2 -c32 -d1s ${5:+-s "$5"} "http://127.0.0.1:$port$4" >/dev/null
  read -r -a before < <(cpu_ticks "$server")
  [ "$1" = postgres ] && db_before=$(postgres_ticks)
  out=$("${pin[@]}" wrk -t2 -c32 -d"${seconds}s" ${5:+-s "$5"} "http://127.0.0.1:$port$4")
  read -r -a after < <(cpu_ticks "$server")
  [ "$1" = postgres ] && db_after=$(postgres_ticks)
  ! grep -q Non-2xx <<<"$out" || { echo "$1 $3: wrk saw answers other than 2xx" >&2; exit 1; }
  requests=$(awk '/requests in/ {print $1}' <<<"$out")
  rps=$(awk '/Requests\/sec/ {print int($2)}' <<<"$out")
  echo "$rps $(( (after[0] + after[1] - before[0] - before[1]) * tick_us / requests )) $(( (db_after - db_before) * tick_us / requests ))" \
    >>"$work/$1-$2-$3"
}

# serve_and_measure ENGINE PLACEMENT: a fresh server (and database) with one pass and one device,
# then list serials and get pass.
serve_and_measure() {
  local database="sqlite:$work/$1-$RANDOM.sqlite" cpus=
  if [ "$1" = postgres ]; then
    database="${pg_url%/*}/reads_$RANDOM"
    psql -q "${pg_url%/*}/postgres" -c "CREATE DATABASE ${database##*/}" >/dev/null
  fi
  [ "$2" = apart ] && cpus=$server_cpus
  if [ "$2" = apart ]; then pin_postgres "$database_cpus"; else pin_postgres "$(cpus 0 $((cores - 1)))"; fi
  serve_bench_pass $port "$database" "$work/serve.log" "$cpus"
  measure "$1" "$2" list "$list_path"
  measure "$1" "$2" get "$get_path" Benchmarks/wrk/get-pass.lua
  kill "$server"; wait "$server" 2>/dev/null || true; server=
  [ "$1" = sqlite ] || echo "$database" >"$work/last-database"
}

# alone: pgbench running list serials' statement on the last PostgreSQL database served (its pass
# and device); appends "tps pgbench_µs database_µs" to $work/pgbench.
alone() {
  local before after out transactions
  cat >"$work/list.sql" <<SQL
SELECT registrations.serial_number, passes.update_tag FROM registrations JOIN passes ON passes.pass_type_identifier = registrations.pass_type_identifier AND passes.serial_number = registrations.serial_number WHERE registrations.device_library_identifier = 'bench-device' AND registrations.pass_type_identifier = '$PASS_TYPE' AND passes.update_tag > 0 ORDER BY registrations.serial_number;
SQL
  pin_postgres "$(cpus 0 $((cores - 1)))"
  before=$(postgres_ticks)
  out=$( { /usr/bin/time -f "TIME %U %S" pgbench -n -M prepared -c "$read_sessions" -j 2 -T "$seconds" -f "$work/list.sql" "$(cat "$work/last-database")"; } 2>&1)
  sleep 0.5  # the backends reaped, their time in the postmaster's
  after=$(postgres_ticks)
  transactions=$(awk '/number of transactions actually processed/ {print $NF}' <<<"$out" | cut -d/ -f1)
  echo "$(awk '/^tps = / {print int($3)}' <<<"$out") $(awk -v n="$transactions" '/^TIME/ {printf "%d", ($2 + $3) * 1e6 / n}' <<<"$out") $(( (after - before) * tick_us / transactions ))" >>"$work/pgbench"
}

for round in $(seq "$rounds"); do
  echo "round $round of $rounds" >&2
  for placement in shared apart; do
    for engine in sqlite postgres; do serve_and_measure $engine $placement; done
  done
  alone
done

# column FILE N: the Nth figure of each round in FILE, "a / b / …".
column() { awk -v n="$2" '{printf "%s%s", (NR > 1 ? " / " : ""), $n}' "$1"; }
# share ENDPOINT PLACEMENT: PostgreSQL's requests/s over SQLite's, round by round.
share() { paste "$work/postgres-$2-$1" "$work/sqlite-$2-$1" | awk '{printf "%s%.2f", (NR > 1 ? " / " : ""), $1 / $4}'; }
echo "| placement | engine | endpoint | requests/s (each round) | PostgreSQL / SQLite | server CPU per request, µs | PostgreSQL CPU per request, µs |"
echo "|---|---|---|---|---|---|---|"
for placement in shared apart; do
  label="server and database on all $cores cores"
  [ $placement = apart ] && label="server on CPU $server_cpus; PostgreSQL and wrk on CPU $database_cpus"
  for endpoint in list get; do
    for engine in sqlite postgres; do
      file="$work/$engine-$placement-$endpoint"
      ratio="—"; [ $engine = postgres ] && ratio="**$(share $endpoint $placement)**"
      db="—"; [ $engine = postgres ] && db=$(column "$file" 3)
      echo "| $label | $engine | $endpoint | $(column "$file" 1) | $ratio | $(column "$file" 2) | $db |"
    done
  done
done
echo "| all $cores cores, nothing else running | pgbench ($read_sessions clients, prepared) | list serials' statement alone | $(column "$work/pgbench" 1) | — | pgbench's own: $(column "$work/pgbench" 2) | $(column "$work/pgbench" 3) |"
echo
echo "machine: $cores cores, load average $(cut -d' ' -f1-3 /proc/loadavg); wrk -t2 -c32 -d${seconds}s; $rounds rounds, alternated"
