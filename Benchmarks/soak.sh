#!/usr/bin/env bash
# Load and soak: several minutes of a realistic Wallet mix against `passwright serve`, on SQLite and on
# PostgreSQL, watching for 5xx, socket errors and memory growth.
#
#   Benchmarks/soak.sh [--seconds N] [--engine sqlite|postgres|both]     (default 180 s, both)
#   PASSWRIGHT_BIN=/path/to/passwright Benchmarks/soak.sh --seconds 30   (skip the release build)
#
# For each engine: starts the server (push off) on a free port with a throwaway data folder, seeds
# 200 passes and 300 devices with 400 registrations, then runs wrk (2 threads, 32 connections) with
# Benchmarks/wrk/soak.lua: 90% reads (list serials, half with passesUpdatedSince; get pass, half with
# If-Modified-Since a few seconds ago so some answer 304), 10% writes (device registrations, new and existing devices;
# admin point updates). It samples the server's VmRSS every half second and prints a markdown table:
# requests/s, p50, p99, total requests, responses by status class, RSS before the load (after
# seeding), half-way through it, its maximum and after it (a leak keeps growing after half-way).
# Half-way it also changes every pass of the template (a template-wide PATCH) and pushes a new
# version of it, and afterwards checks that no pass is behind that version and that every twentieth
# pass carries the change.
# Exits non-zero on any 5xx, any 4xx (the mix sends none that should fail), any socket error or
# timeout wrk counted, or a server that died.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=180
engines="sqlite postgres"
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --engine)
      case "$2" in sqlite|postgres) engines=$2 ;; both) engines="sqlite postgres" ;;
        *) echo "soak: --engine must be sqlite, postgres or both, not '$2'" >&2; exit 64 ;; esac
      shift 2 ;;
    *) echo "usage: $0 [--seconds N] [--engine sqlite|postgres|both]" >&2; exit 64 ;;
  esac
done
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "soak: --seconds must be a positive integer" >&2; exit 64; }

command -v wrk >/dev/null || apt-get install -y -qq wrk >/dev/null
if [ -n "${PASSWRIGHT_BIN:-}" ]; then
  bin=$PASSWRIGHT_BIN
else
  swift build -c release --product passwright >&2
  bin=$PWD/.build/release/passwright
fi

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }

work=$(mktemp -d /tmp/passwright-soak.XXXXXX)
pg_dir=
server=
sampler=
cleanup() {
  [ -n "$sampler" ] && kill "$sampler" 2>/dev/null || true
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then kill -TERM "$server"; wait "$server" 2>/dev/null || true; fi
  [ -n "$pg_dir" ] && { scripts/postgres.sh stop "$pg_dir" 2>/dev/null || true; rm -rf "$pg_dir"; }
  rm -rf "$work"
}
trap cleanup EXIT

export PASS_TYPE=pass.dev.passwright.loyalty
"$bin" certs dev --out "$work/ids" --pass-type-id "$PASS_TYPE" >/dev/null
SOAK_ADMIN_TOKEN=$(python3 -c 'import secrets; print(secrets.token_urlsafe(30))')
export SOAK_ADMIN_TOKEN

failures=()
rows=()
for engine in $engines; do
  if [ "$engine" = postgres ]; then
    pg_dir=$(mktemp -d /tmp/passwright-soak-pg.XXXXXX)  # the postgres user must reach it
    database=$(scripts/postgres.sh start "$pg_dir")
  else
    database="sqlite:$work/soak.sqlite"
  fi
  port=$(free_port)
  base="http://127.0.0.1:$port"
  PASSWRIGHT_ADMIN_TOKEN=$SOAK_ADMIN_TOKEN "$bin" serve --port "$port" --database "$database" --templates Templates \
    --identities "$work/ids" --data-dir "$work/data-$engine" --push off --quiet-hours off --notification-spacing 0 --log-level error 2>"$work/serve-$engine.log" &
  server=$!
  for _ in $(seq 100); do
    curl -sf "$base/healthz" >/dev/null 2>&1 && break
    kill -0 "$server" 2>/dev/null || { cat "$work/serve-$engine.log" >&2; echo "soak: $engine: the server did not start" >&2; exit 1; }
    sleep 0.1
  done

  # Seed over one keep-alive connection; prints the median update tag, for passesUpdatedSince.
  export SOAK_SEED=$work/seed-$engine.txt
  read -r SOAK_SINCE < <(python3 - "$port" "$SOAK_SEED" <<'PY'
import http.client, json, os, sys
port, seed = int(sys.argv[1]), sys.argv[2]
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
def call(method, path, body, authorization, expect):
    connection.request(method, path, json.dumps(body), {"Authorization": authorization, "Content-Type": "application/json"})
    response = connection.getresponse()
    text = response.read()
    if response.status not in expect:
        sys.exit(f"soak: seeding: {method} {path} answered {response.status}: {text[:300]!r}")
    return json.loads(text) if text else None
admin = "Bearer " + os.environ["SOAK_ADMIN_TOKEN"]
pass_type = os.environ["PASS_TYPE"]
lines, tags = [], []
for i in range(200):
    serial, token = f"soak-{i:04d}", f"soak-token-{i:04d}-{os.urandom(8).hex()}"
    issued = call("POST", "/api/v1/passes", {"template": "loyalty", "serialNumber": serial, "data": {
        "authenticationToken": token, "member": {"id": f"M-{i}", "name": f"Member {i}"}, "points": i, "tier": "Gold"}}, admin, {201})
    tags.append(int(issued["updateTag"]))
    lines.append(f"pass {serial} {token}")
tokens = {line.split()[1]: line.split()[2] for line in lines}
for d in range(300):
    device = f"seed-device-{d:04d}"
    for serial in {f"soak-{d % 200:04d}", f"soak-{(d * 7 + 3) % 200:04d}"} if d < 100 else {f"soak-{d % 200:04d}"}:
        call("POST", f"/wallet/v1/devices/{device}/registrations/{pass_type}/{serial}", {"pushToken": os.urandom(16).hex()},
             "ApplePass " + tokens[serial], {201})
        lines.append(f"device {device} {serial}")
with open(seed, "w") as file:
    file.write("\n".join(lines) + "\n")
print(sorted(tags)[len(tags) // 2])
PY
)
  [ -n "${SOAK_SINCE:-}" ] || { echo "soak: $engine: seeding failed (server log: $work/serve-$engine.log)" >&2; exit 1; }
  export SOAK_SINCE

  rss_before=$(rss_kb "$server")
  (while kill -0 "$server" 2>/dev/null; do rss_kb "$server"; sleep 0.5; done) >"$work/rss-$engine.txt" &
  sampler=$!
  wrk -t2 -c32 -d"${seconds}s" --timeout 10s --latency -s Benchmarks/wrk/soak.lua "$base" >"$work/wrk-$engine.txt" 2>&1 &
  load=$!
  # Half-way, under the load: a template-wide change and a new template version rolled out, so the
  # release build's write pipeline (planning on several tasks, pages written while the next is planned)
  # runs beside the mix; afterwards no pass may be behind the new version, and every twentieth pass
  # (10 of 200) is read back for the change.
  sleep $((seconds / 2))
  rm -rf "$work/roll-$engine"; mkdir -p "$work/roll-$engine"; cp -r Templates/loyalty "$work/roll-$engine/loyalty"
  sed -i 's/"label": "Points"/"label": "Stars"/' "$work/roll-$engine/loyalty/pass.json"
  wide=$(curl -s -o /dev/null -w '%{http_code}' -X PATCH -H "Authorization: Bearer $SOAK_ADMIN_TOKEN" -H 'Content-Type: application/json' \
    -d '{"data": {"tier": "Platinum"}}' "$base/api/v1/templates/loyalty/passes")
  [ "$wide" = 200 ] || failures+=("$engine: the template-wide change answered $wide")
  PASSWRIGHT_SERVER=$base PASSWRIGHT_ADMIN_TOKEN=$SOAK_ADMIN_TOKEN "$bin" templates push "$work/roll-$engine/loyalty" >"$work/push-$engine.txt" 2>&1 ||
    failures+=("$engine: templates push failed: $(tail -n 3 "$work/push-$engine.txt")")
  wait "$load" || true
  kill "$sampler" 2>/dev/null || true; wait "$sampler" 2>/dev/null || true; sampler=

  alive=yes
  if ! kill -0 "$server" 2>/dev/null || ! curl -sf "$base/healthz" >/dev/null; then alive=no; fi
  rss_after=$(rss_kb "$server")
  [ "$alive" = yes ] || rss_after=dead
  rss_max=$(sort -n "$work/rss-$engine.txt" | tail -n 1)
  rss_mid=$(awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] + 0 }' "$work/rss-$engine.txt")
  out=$(cat "$work/wrk-$engine.txt")
  rps=$(awk '/Requests\/sec/ {print int($2)}' <<<"$out")
  p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  total=$(awk '/requests in/ {print $1}' <<<"$out")
  socket=$(awk '/Socket errors/ {gsub(",", ""); print $4 + $6 + $8 + $10}' <<<"$out")
  read -r _ c1 c2 c3 c4 c5 < <(grep '^soak-status' <<<"$out" || echo "soak-status 0 0 0 0 0")
  mb() { if [ "$1" = dead ]; then echo dead; else awk -v k="$1" 'BEGIN {printf "%.1f MB", k / 1024}'; fi; }
  rows+=("| $engine | ${rps:-?} | ${p50:-?} | ${p99:-?} | ${total:-?} | $c2 | $c3 | $c4 | $c5 | ${socket:-0} | $(mb "$rss_before") | $(mb "$rss_mid") | $(mb "${rss_max:-0}") | $(mb "$rss_after") |")

  [ -n "$total" ] && [ "$c2" -gt 0 ] || failures+=("$engine: wrk produced no result: $(tail -n 5 <<<"$out")")
  [ "$c5" -eq 0 ] || failures+=("$engine: $c5 responses were 5xx (server log: $work/serve-$engine.log)")
  [ "$c4" -eq 0 ] || failures+=("$engine: $c4 responses were 4xx; the mix sends no request that should fail")
  [ "${socket:-0}" -eq 0 ] || failures+=("$engine: wrk counted socket errors or timeouts: $(grep 'Socket errors' <<<"$out")")
  [ "$alive" = yes ] || failures+=("$engine: the server died or stopped answering /healthz under load")
  if [ "$alive" = yes ]; then
    rolled=$(python3 - "$base" <<'PY'
import json, os, sys, time, urllib.request
base, headers = sys.argv[1], {"Authorization": "Bearer " + os.environ["SOAK_ADMIN_TOKEN"]}
def get(path):
    with urllib.request.urlopen(urllib.request.Request(base + path, headers=headers), timeout=30) as response:
        return json.load(response)
for _ in range(300):  # the roll-out of 200 passes takes well under a second; wait up to a minute
    template = get("/api/v1/templates/loyalty")
    if template["passesBehind"] == 0:
        break
    time.sleep(0.2)
tiers = {get(f"/api/v1/passes/{os.environ['PASS_TYPE']}/soak-{i:04d}")["data"]["tier"] for i in range(0, 200, 20)}
print(f"v{template['currentVersion']} behind={template['passesBehind']} tiers={','.join(sorted(tiers))}")
PY
) || rolled="unreadable"
    [ "$rolled" = "v2 behind=0 tiers=Platinum" ] || failures+=("$engine: after the roll-out and the template-wide change: $rolled (expected v2 behind=0 tiers=Platinum)")
  fi
  if [ ${#failures[@]} -gt 0 ]; then
    grep -i 'error\|fatal' "$work/serve-$engine.log" | sort | uniq -c | sort -rn | head -10 >&2 || true
  fi

  if kill -0 "$server" 2>/dev/null; then kill -TERM "$server"; wait "$server" 2>/dev/null || true; fi
  server=
  if [ -n "$pg_dir" ]; then scripts/postgres.sh stop "$pg_dir" || true; rm -rf "$pg_dir"; pg_dir=; fi
done

echo "| engine | requests/s | p50 | p99 | requests | 2xx | 3xx | 4xx | 5xx | socket errors | RSS before | RSS half-way | RSS max | RSS after |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "wrk -t2 -c32 -d${seconds}s, mix 45% list serials, 45% get pass, 5% register, 5% update; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
if [ ${#failures[@]} -gt 0 ]; then
  printf 'soak: FAILED: %s\n' "${failures[@]}" >&2
  exit 1
fi
