#!/usr/bin/env bash
# A design change reaching every phone: a fleet of simulated devices that follows Apple's protocol.
#
#   Benchmarks/fleet.sh [PASSES] [DEVICES] [--engine sqlite|postgres|both] [--wave rollout|patch|both] [--max-delay S]
#                       (defaults: 10000, 15000, both, both, 3 s; 100000 150000 for the large run)
#   Benchmarks/fleet.sh 200 300 --engine sqlite          # a quick check
#   PASSWRIGHT_BIN=/path/to/passwright Benchmarks/fleet.sh   # measure that binary (e.g. an older build)
#   PASSWRIGHT_PUSH_RATE=1000 Benchmarks/fleet.sh         # serve's settings from the environment (default ceiling 5,000/s)
#   Benchmarks/fleet.sh --perf DIR                        # also `perf record --call-graph dwarf` the server over each wave, into
#                                                         # DIR/perf-ENGINE-WAVE.data (the figures then carry perf's cost)
#
# Measures what a business feels after a template roll-out or a template-wide change: how long until
# every phone holds the new pass, when every pass must be rendered and CMS-signed anew. Per engine:
# `passwright serve` (release build) with `--push on` pushing to the APNs stand-in
# (Tests/Support/apns-standin, HTTP/2 + TLS, needs `pip install h2`; its server certificate is issued by
# the dev root CA) and `--public-url https://passes.example.test`, on a SQLite file or a throwaway
# PostgreSQL (scripts/postgres.sh), with a copy of Templates/loyalty in the work folder.
# Benchmarks/fleet.py then issues PASSES passes with one bulk job (each record with its own
# authenticationToken), registers DEVICES devices through the Wallet web service (device i holds pass
# i mod PASSES: with 1.5 devices per pass every pass has one, half have a second) and plays each wave:
#   rollout  a new version of the template (its logoText changed) published with PUT: the server rolls
#            every pass to it and pushes each device;
#   patch    one template-wide change, PATCH /api/v1/templates/loyalty/passes (a data value that a back
#            field shows).
# Each device, woken by its push in the stand-in's record after a random delay (uniform 0–S s, --max-delay, 3 by default), lists
# its updated serials since its tag and fetches each pass with If-Modified-Since, over 64 keep-alive
# connections, and checks the pass.json it got holds the new value. Prints one markdown table, a
# column per engine and wave: the time until every device holds the new pass, refreshed passes per
# second, the server's CPU per refreshed pass (/proc ticks over the wave; PostgreSQL's processes
# too) and as a multiple of one CMS signature (`passwright bench` on one core, same run), refreshed
# passes/s against that ceiling times the cores the fleet and the stand-in leave (their own CPU is
# measured), each device call's p50/p99, pushes per device (duplicates) and fetches per pass; then
# each wave second by second (pushes, devices woken and refreshed, calls waiting, server cores busy,
# the server's push pace). After each wave every device makes its calls again against the passes
# now signed (no push, no signature): the server's CPU for that is what the device calls alone cost
# a refreshed pass, a floor under the wave's CPU measured in the same run.
# Exits 1 if any device does not end with the new pass.
set -euo pipefail
cd "$(dirname "$0")/.."
engine=both
wave=both
perf=()
max_delay=3
positional=()
while [ $# -gt 0 ]; do
  case "$1" in
    --engine) engine=$2; shift 2 ;;
    --wave) wave=$2; shift 2 ;;
    --max-delay) max_delay=$2; shift 2 ;;
    --perf) perf=(--perf-dir "$(realpath "$2")"); mkdir -p "$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) positional+=("$1"); shift ;;
  esac
done
passes=${positional[0]:-10000}
devices=${positional[1]:-15000}
case "$engine" in sqlite|postgres) engines=("$engine") ;; both) engines=(sqlite postgres) ;; *) echo "--engine sqlite|postgres|both" >&2; exit 64 ;; esac
case "$wave" in rollout|patch) waves=$wave ;; both) waves=rollout,patch ;; *) echo "--wave rollout|patch|both" >&2; exit 64 ;; esac

source Benchmarks/lib/setup.sh
source Benchmarks/lib/apns-receiver.sh
bench_setup fleet
pass_type=pass.dev.passwright.loyalty
$bin certs dev --out "$work/ids" --pass-type-id $pass_type >/dev/null
start_apns_receiver standin

# The signing ceiling on one core, in the same run: one JSON line from `passwright bench`.
signatures=$(signatures_per_second "$work/ids" $pass_type)

admin=bench-admin-token-0123456789
port=$(free_port)
for engine in "${engines[@]}"; do
  database="sqlite:$work/fleet.sqlite"
  postmaster=()
  if [ "$engine" = postgres ]; then
    database=$(scripts/postgres.sh start "$pg_dir")
    postmaster=(--postmaster-pid "$(head -1 "$pg_dir/data/postmaster.pid")")
  fi
  mkdir -p "$work/templates-$engine"
  cp -r Templates/loyalty "$work/templates-$engine/loyalty"
  PASSWRIGHT_ADMIN_TOKEN=$admin $bin serve --port "$port" --database "$database" --templates "$work/templates-$engine" \
    --identities "$work/ids" --data-dir "$work/data-$engine" --public-url https://passes.example.test --log-level error \
    --push on --apns-url "https://127.0.0.1:$apns_port" --apns-ca-file "$work/ids/dev-ca/root.pem" 2>"$work/serve-$engine.log" &
  server=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.2; done
  echo "fleet: $engine, load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  python3 Benchmarks/fleet.py run --engine "$engine" --port "$port" --admin "$admin" --pass-type $pass_type \
    --template-dir "$work/templates-$engine/loyalty" --record "$work/requests.jsonl" --passes "$passes" --devices "$devices" \
    --waves "$waves" --results "$work/results.jsonl" --server-pid "$server" "${postmaster[@]}" --standin-pid "$standin" \
    --signatures-per-second "$signatures" --max-delay "$max_delay" "${perf[@]}" || failed=1
  kill "$server"; wait "$server" 2>/dev/null || true; server=
done
python3 Benchmarks/fleet.py report "$work/results.jsonl"
echo
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end; server, PostgreSQL, fleet and stand-in (Python, one process each) on the same machine"
[ -z "${failed:-}" ] || { echo "fleet: some device did not end with the new pass (see above)" >&2; exit 1; }
