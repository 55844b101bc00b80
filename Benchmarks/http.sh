#!/usr/bin/env bash
# HTTP throughput of the Wallet web service with wrk, on SQLite and on PostgreSQL.
#
#   Benchmarks/http.sh [SECONDS]      (default 10 s per endpoint and engine)
#   PASSWRIGHT_BIN=/path/to/passwright Benchmarks/http.sh    # measure that binary (e.g. an older build)
#
# For each engine: starts `passwright serve` (release build) on 127.0.0.1, issues a pass, registers
# a device, then runs wrk (2 threads, 32 connections) against register (a new device each request),
# issue (POST /api/v1/passes, a new pass each request: validated and stored, its event, audit row and
# counters written; nothing signed), list serials (200 with a body) and get pass (200, the signed
# .pkpass), and prints requests/s and
# the p50/p99 latency wrk reports, and the CPU each request cost the server (user + system time from
# /proc/<pid>/stat over the run) and, on PostgreSQL, the database's processes. First it builds and
# measures Benchmarks/hello.c, libmicrohttpd answering a 60-byte JSON body with the daemon shape serve
# uses: every endpoint is also printed as a share of that bare-server limit, measured in the same run.
# hello is measured again at the end, to show how far the machine moved during the run, and just before
# list serials and get pass (on the next port, serve idle), which are also compared with that; and with BURN_US=25 and 50 (that much user-space work before each answer), to
# show what the kernel costs a server that is slower than wrk on the same cores, and with BODY_BYTES set
# to the size of the loyalty pass's archive (that many bytes from memory, no work): the loopback
# transfer's own limit for get pass, to which get pass is also compared. On PostgreSQL it also
# runs pgbench with wrk's client count (select-only, and a one-row insert per transaction): the
# database's own limit on this machine, to which register, list serials and get pass are compared,
# and pgbench running the registration's own statement (Benchmarks/lib/register-statement.py) on the
# database serve used: what PostgreSQL alone does of a register.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
command -v wrk >/dev/null || apt-get install -y -qq wrk >/dev/null
command -v /usr/bin/time >/dev/null || apt-get install -y -qq time >/dev/null
source Benchmarks/lib/setup.sh
bench_setup http
$bin certs dev --out "$work/ids" --pass-type-id pass.dev.passwright.loyalty >/dev/null
pg_url=$(scripts/postgres.sh start "$pg_dir")

export PASS_TYPE=pass.dev.passwright.loyalty SERIAL=bench-1 TOKEN=benchtoken-0123456789abcdef
admin=bench-admin-token-0123456789
port=18099
# measure NAME URL [SCRIPT]: wrk against URL; sets out (wrk's report), rps, and cpu ("user + system
# µs" of $server per request), db_cpu (µs of PostgreSQL per request, or —) and wrk_cpu (wrk's own).
measure() {
  local before after db_before db_after requests
  read -r -a before < <(cpu_ticks "$server")
  [ -n "${database_pids:-}" ] && read -r -a db_before < <(cpu_ticks $database_pids)
  out=$(/usr/bin/time -f "%U %S" -o "$work/wrk-time" wrk -t2 -c32 -d"${seconds}s" --latency ${3:+-s "$3"} "$2")
  read -r -a after < <(cpu_ticks "$server")
  [ -n "${database_pids:-}" ] && read -r -a db_after < <(cpu_ticks $database_pids)
  requests=$(awk '/requests in/ {print $1}' <<<"$out")
  rps=$(awk '/Requests\/sec/ {print int($2)}' <<<"$out")
  cpu="$(( (after[0] - before[0]) * tick_us / requests )) + $(( (after[1] - before[1]) * tick_us / requests )) µs"
  wrk_cpu="$(awk -v n="$requests" '{printf "%.1f µs", ($1 + $2) * 1e6 / n}' "$work/wrk-time")"
  db_cpu="—"
  [ -n "${database_pids:-}" ] && db_cpu="$(( (db_after[0] + db_after[1] - db_before[0] - db_before[1]) * tick_us / requests )) µs"
  return 0
}
# pgbench_rows REGISTER LIST GET ISSUE: PostgreSQL's own limit on this machine in the same run, with wrk's
# client count (32 clients, 2 threads, prepared statements): select-only (`pgbench -S`, one primary-key
# read a transaction) and a one-row insert a transaction (what a registration commits at least). Prints
# them, their PostgreSQL CPU per transaction, and Passwright's requests/s as a share of each.
pgbench_rows() {
  local pgbench_url="${pg_url%/*}/pgbench" before after tps
  psql -q "${pg_url%/*}/postgres" -c "CREATE DATABASE pgbench" >/dev/null
  pgbench -q -i -s 10 "$pgbench_url" >/dev/null 2>&1
  psql -q "$pgbench_url" -c "CREATE TABLE one_row (id bigserial PRIMARY KEY, device text NOT NULL, token text NOT NULL, created timestamptz NOT NULL DEFAULT now())" >/dev/null
  echo "INSERT INTO one_row (device, token) VALUES (md5(random()::text), md5(random()::text));" >"$work/one-row.sql"
  # pgbench_run NAME ARGS...: sets tps and db_cpu (PostgreSQL µs per transaction).
  pgbench_run() {
    shift
    before=$(postgres_ticks)
    out=$(pgbench -n -M prepared -c 32 -j 2 -T "$seconds" "$@" "$pgbench_url" 2>&1)
    sleep 0.5  # the backends reaped, their time in the postmaster's
    after=$(postgres_ticks)
    tps=$(awk '/^tps = / {print int($3)}' <<<"$out")
    local transactions; transactions=$(awk '/number of transactions actually processed/ {print $NF}' <<<"$out" | cut -d/ -f1)
    db_cpu="$(( (after - before) * tick_us / transactions )) µs"
  }
  pgbench_run select -S
  echo "| postgres | pgbench -S -M prepared (one primary-key read a transaction) | $tps | — | — | — | 0 | — | $db_cpu | — |"
  select_tps=$tps
  pgbench_run insert -f "$work/one-row.sql"
  echo "| postgres | pgbench one-row insert, -M prepared (one commit a transaction) | $tps | — | — | — | 0 | — | $db_cpu | — |"
  insert_tps=$tps
  # The registration's own statement on the database serve just used (its pass, its schema).
  python3 Benchmarks/lib/register-statement.py "$PASS_TYPE" "$SERIAL" >"$work/register.sql"
  pgbench_url=$pg_url pgbench_run register -f "$work/register.sql"
  echo "| postgres | pgbench running the registration's statement, -M prepared (a new device each) | $tps | — | — | — | 0 | — | $db_cpu | — |"
  pg_ratios="PostgreSQL's own limit, same run, 32 clients: register $1/s = $(python3 -c "print(f'{$1 / $tps:.2f}')") of PostgreSQL running the registration's statement alone ($tps/s) and $(python3 -c "print(f'{$1 / $insert_tps:.2f}')") of the one-row insert's $insert_tps/s; issue $4/s = $(python3 -c "print(f'{$4 / $insert_tps:.2f}')") of the one-row insert; list serials $2/s = $(python3 -c "print(f'{$2 / $select_tps:.2f}')") and get pass $3/s = $(python3 -c "print(f'{$3 / $select_tps:.2f}')") of select-only's $select_tps/s."
}
pg_ratios=
sized_ratios=
beside_ratios=
cc -O2 -o "$work/hello" Benchmarks/hello.c $(pkg-config --cflags --libs libmicrohttpd)
# The size of the archive get pass answers with: one loyalty pass built with the same template.
source Benchmarks/lib/records.sh
make_csv 1 "$work/one.csv"
$bin batch Templates/loyalty --input "$work/one.csv" --out-dir "$work/one" --identities "$work/ids" >/dev/null 2>&1
pass_bytes=$(stat -c %s "$work"/one/*.pkpass)
echo "| engine | endpoint | requests/s | vs. hello | p50 | p99 | non-2xx | server CPU per request (user + system) | PostgreSQL CPU per request | wrk CPU per request |"
echo "|---|---|---|---|---|---|---|---|---|---|"
# measure_hello BURN_US BODY_BYTES [PORT]: hello.c with that much work and that body, measured as
# above; $server is what it was before (the endpoints' serve, if one is running on another port).
measure_hello() {
  local hello_port=${3:-$port} serve_pid=${server:-}
  BURN_US=$1 BODY_BYTES=$2 "$work/hello" "$hello_port" &
  server=$!
  for _ in $(seq 50); do curl -sf "http://127.0.0.1:$hello_port/" >/dev/null && break; sleep 0.1; done
  measure hello "http://127.0.0.1:$hello_port/"
  kill "$server"; wait "$server" 2>/dev/null || true; server=$serve_pid
}
# hello_beside: bare hello on the next port while serve idles, just before a read endpoint; sets
# beside_hello (PostgreSQL's processes are not counted for it). The machine's own speed moves by up
# to 1.5 times within a run (BENCHMARKS.md), so the reads are also compared with the hello next to them.
hello_beside() {
  local pids=${database_pids:-}
  database_pids=
  measure_hello 0 0 $((port + 1))
  beside_hello=$rps database_pids=$pids
}
for burn in 0 25 50 sized; do
  body=0
  [ "$burn" = sized ] && { burn=0; body=$pass_bytes; }
  measure_hello $burn $body
  p50=$(awk '$1 == "50%" {print $2}' <<<"$out"); p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  if [ "$body" != 0 ]; then
    sized_hello=$rps
    echo "| — | hello answering $pass_bytes bytes (BODY_BYTES, the size of get pass's archive) | $rps | $(python3 -c "print(f'{$rps / $hello:.2f}')") | $p50 | $p99 | 0 | $cpu | — | $wrk_cpu |"
  elif [ "$burn" = 0 ]; then
    hello=$rps
    echo "| — | bare libmicrohttpd hello (Benchmarks/hello.c) | $hello | limit | $p50 | $p99 | 0 | $cpu | — | $wrk_cpu |"
  else
    echo "| — | hello with BURN_US=$burn (that much work per request) | $rps | $(python3 -c "print(f'{$rps / $hello:.2f}')") | $p50 | $p99 | 0 | $cpu | — | $wrk_cpu |"
  fi
done
for engine in sqlite postgres; do
  database="sqlite:$work/$engine.sqlite"
  [ "$engine" = postgres ] && database=$pg_url
  serve_bench_pass $port "$database" "$work/serve-$engine.log"
  database_pids=
  if [ "$engine" = postgres ]; then
    # A second of reads first: each HTTP thread opens its own connection on its first read, and the
    # PostgreSQL processes counted below are the ones alive now.
    wrk -t2 -c32 -d1s "http://127.0.0.1:$port/wallet/v1/devices/bench-device/registrations/$PASS_TYPE" >/dev/null
    database_pids=$(postgres_pids)
  fi
  run() {  # run NAME URL [SCRIPT]
    measure "$@"
    local p50 p99 errors
    p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
    p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
    errors=$(awk '/Non-2xx/ {print $5}' <<<"$out")
    echo "| $engine | $1 | $rps | $(python3 -c "print(f'{$rps / $hello:.2f}')") | $p50 | $p99 | ${errors:-0} | $cpu | $db_cpu | $wrk_cpu |"
  }
  base="http://127.0.0.1:$port"
  run "register (POST, new device each time)" "$base/" Benchmarks/wrk/register.lua
  register_rps=$rps
  ADMIN=$admin SERIAL_PREFIX=$engine run "issue (POST /api/v1/passes, new pass each time)" "$base/" Benchmarks/wrk/issue.lua
  issue_rps=$rps
  # The writes above grew the tables from one row to tens of thousands in seconds. The reads' statements
  # were prepared in the warm-up, when each table held one row, and PostgreSQL keeps the generic plan it
  # chose then (sequential scans) until the tables are analyzed: autovacuum does that within a minute
  # of such growth, a benchmark's reads come sooner. Without this, list serials measured a plan no
  # running server keeps (4,000 against 21,000–25,000/s, 430 µs of PostgreSQL a read).
  [ "$engine" = postgres ] && psql -qAt "$pg_url" -c ANALYZE
  hello_beside
  run "list serials (GET, 200)" "$base/wallet/v1/devices/bench-device/registrations/$PASS_TYPE"
  list_rps=$rps
  beside_ratios+="list serials on $engine $(python3 -c "print(f'{$rps / $beside_hello:.2f}')") of the hello just before it ($beside_hello/s); "
  hello_beside
  run "get pass (GET, 200 .pkpass)" "$base/wallet/v1/passes/$PASS_TYPE/$SERIAL" Benchmarks/wrk/get-pass.lua
  beside_ratios+="get pass on $engine $(python3 -c "print(f'{$rps / $beside_hello:.2f}')") of the hello just before it ($beside_hello/s). "
  sized_ratios+="get pass on $engine $rps/s = $(python3 -c "print(f'{$rps / $sized_hello:.2f}')") of hello answering a pass-sized body ($sized_hello/s). "
  kill "$server"; wait "$server" 2>/dev/null || true; server=
  if [ "$engine" = postgres ]; then
    pgbench_rows "$register_rps" "$list_rps" "$rps" "$issue_rps"
  fi
done
# Bare hello once more: how far the machine itself moved during the run (the ratios above are to the
# first measurement; on a shared VM the two can differ by a tenth or more).
measure_hello 0 0
echo "| — | bare libmicrohttpd hello again, after the endpoints | $rps | $(python3 -c "print(f'{$rps / $hello:.2f}')") | $(awk '$1 == "50%" {print $2}' <<<"$out") | $(awk '$1 == "99%" {print $2}' <<<"$out") | 0 | $cpu | — | $wrk_cpu |"
echo
echo "The loopback transfer's own limit, same run: ${sized_ratios}" && echo
echo "Against bare hello measured just before each read, while serve idles: ${beside_ratios}" && echo
[ -n "$pg_ratios" ] && echo "$pg_ratios" && echo
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); wrk -t2 -c32 -d${seconds}s on the same machine"
