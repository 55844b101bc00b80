#!/usr/bin/env bash
# HTTP throughput of the Wallet web service with wrk, on SQLite and on PostgreSQL.
#
#   Benchmarks/http.sh [SECONDS]      (default 10 s per endpoint and engine)
#   PASSWRIGHT_BIN=/path/to/passwright Benchmarks/http.sh    # measure that binary (e.g. an older build)
#
# For each engine: starts `passwright serve` (release build) on 127.0.0.1, issues a pass, registers
# a device, then runs wrk (2 threads, 32 connections) against register (a new device each request),
# list serials (200 with a body) and get pass (200, the signed .pkpass), and prints requests/s and
# the p50/p99 latency wrk reports. First it builds and measures Benchmarks/hello.c, libmicrohttpd
# answering a 60-byte JSON body with the daemon shape serve uses: every endpoint is also printed as
# a share of that bare-server limit, measured in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
command -v wrk >/dev/null || apt-get install -y -qq wrk >/dev/null
source Benchmarks/lib/setup.sh
bench_setup http
$bin certs dev --out "$work/ids" --pass-type-id pass.dev.passwright.loyalty >/dev/null
pg_url=$(scripts/postgres.sh start "$pg_dir")

export PASS_TYPE=pass.dev.passwright.loyalty SERIAL=bench-1 TOKEN=benchtoken-0123456789abcdef
admin=bench-admin-token-0123456789
port=18099
cc -O2 -o "$work/hello" Benchmarks/hello.c $(pkg-config --cflags --libs libmicrohttpd)
"$work/hello" $port &
server=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/" >/dev/null && break; sleep 0.1; done
hello_out=$(wrk -t2 -c32 -d"${seconds}s" --latency "http://127.0.0.1:$port/")
hello=$(awk '/Requests\/sec/ {print int($2)}' <<<"$hello_out")
kill "$server"; wait "$server" 2>/dev/null || true; server=
echo "| engine | endpoint | requests/s | vs. hello | p50 | p99 | non-2xx |"
echo "|---|---|---|---|---|---|---|"
echo "| — | bare libmicrohttpd hello (Benchmarks/hello.c) | $hello | limit | $(awk '$1 == "50%" {print $2}' <<<"$hello_out") | $(awk '$1 == "99%" {print $2}' <<<"$hello_out") | 0 |"
for engine in sqlite postgres; do
  database="sqlite:$work/$engine.sqlite"
  [ "$engine" = postgres ] && database=$pg_url
  PASSWRIGHT_ADMIN_TOKEN=$admin $bin serve --port $port --database "$database" --templates Templates \
    --identities "$work/ids" --data-dir "$work/data-$engine" --log-level error 2>"$work/serve-$engine.log" &
  server=$!
  for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.2; done
  curl -sf -X POST "http://127.0.0.1:$port/api/v1/passes" -H "Authorization: Bearer $admin" -H "Content-Type: application/json" \
    -d "{\"template\":\"loyalty\",\"serialNumber\":\"$SERIAL\",\"data\":{\"authenticationToken\":\"$TOKEN\",\"member\":{\"id\":\"M-1\",\"name\":\"Ada\"},\"points\":10,\"tier\":\"Gold\"}}" >/dev/null
  curl -sf -X POST "http://127.0.0.1:$port/wallet/v1/devices/bench-device/registrations/$PASS_TYPE/$SERIAL" \
    -H "Authorization: ApplePass $TOKEN" -d '{"pushToken":"00ff"}' >/dev/null
  run() {  # run NAME URL [SCRIPT]
    local out
    out=$(wrk -t2 -c32 -d"${seconds}s" --latency ${3:+-s "$3"} "$2")
    local rps p50 p99 errors
    rps=$(awk '/Requests\/sec/ {print int($2)}' <<<"$out")
    p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
    p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
    errors=$(awk '/Non-2xx/ {print $5}' <<<"$out")
    echo "| $engine | $1 | $rps | $(python3 -c "print(f'{$rps / $hello:.2f}')") | $p50 | $p99 | ${errors:-0} |"
  }
  base="http://127.0.0.1:$port"
  run "register (POST, new device each time)" "$base/" Benchmarks/wrk/register.lua
  run "list serials (GET, 200)" "$base/wallet/v1/devices/bench-device/registrations/$PASS_TYPE"
  run "get pass (GET, 200 .pkpass)" "$base/wallet/v1/passes/$PASS_TYPE/$SERIAL" Benchmarks/wrk/get-pass.lua
  kill "$server"; wait "$server" 2>/dev/null || true; server=
done
echo
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); wrk -t2 -c32 -d${seconds}s on the same machine"
