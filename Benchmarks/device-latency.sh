#!/usr/bin/env bash
# A device call stays fast while previews draw: the latency of Wallet's list-serials call, idle and
# while two clients draw template previews non-stop, measured in the same run on the same server.
#
#   Benchmarks/device-latency.sh [CALLS]      (default 2000 device calls per phase)
#   PASSWRIGHT_BIN=/path/to/passwright Benchmarks/device-latency.sh
#
# Starts `passwright serve` (release build) on 127.0.0.1 with SQLite, issues a pass of the loyalty
# sample and registers a device for it. Then one device client (keep-alive, one call every 2 ms)
# calls `GET /wallet/v1/devices/{d}/registrations/{type}` CALLS times with nothing else running, and
# CALLS times again while two clients (one process each, keep-alive) post
# `POST /api/v1/templates/loyalty/preview?scale=3` back to back, each drawing the sample's record at
# @3x. Prints a markdown table: median, p99 and max of the device call in both phases, and the
# previews drawn meanwhile. Goal: median ≤ 3 ms and p99 ≤ 15 ms while previews draw (a preview
# route that ran on libmicrohttpd's daemon thread held every device call behind it).
set -euo pipefail
cd "$(dirname "$0")/.."
calls=${1:-2000}
source Benchmarks/lib/setup.sh
bench_setup device-latency
pass_type=pass.dev.passwright.loyalty
$bin certs dev --out "$work/ids" --pass-type-id $pass_type >/dev/null

admin=bench-admin-token-0123456789
port=18096
PASSWRIGHT_ADMIN_TOKEN=$admin $bin serve --hostname 127.0.0.1 --port $port --database "sqlite:$work/device.sqlite" \
  --templates Templates --identities "$work/ids" --data-dir "$work/data" --log-level error --push off 2>"$work/serve.log" &
server=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.2; done
token=benchtoken-0123456789abcdef
curl -sf -X POST "http://127.0.0.1:$port/api/v1/passes" -H "Authorization: Bearer $admin" -H "Content-Type: application/json" \
  -d "{\"template\":\"loyalty\",\"serialNumber\":\"device-1\",\"data\":{\"authenticationToken\":\"$token\",\"member\":{\"id\":\"M-1\",\"name\":\"Ada Okafor\"},\"points\":1280,\"tier\":\"Gold\"}}" >/dev/null
curl -sf -X POST "http://127.0.0.1:$port/wallet/v1/devices/bench-device/registrations/$pass_type/device-1" \
  -H "Authorization: ApplePass $token" -H "Content-Type: application/json" -d '{"pushToken":"00ff"}' >/dev/null

python3 - "$port" "$pass_type" "$admin" "$calls" <<'PY'
import http.client, json, multiprocessing, statistics, sys, time

port, pass_type, admin, calls = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
record = json.load(open("Templates/samples/loyalty.json"))
preview_body = json.dumps({"record": record}).encode()

def previews(stop, drawn, limit_seconds):
    """Posts previews back to back until told to stop (or the time bound passes); counts the 200s."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    deadline = time.monotonic() + limit_seconds
    while not stop.is_set() and time.monotonic() < deadline:
        connection.request("POST", "/api/v1/templates/loyalty/preview?scale=3", body=preview_body,
                           headers={"Authorization": "Bearer " + admin, "Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            raise SystemExit(f"preview answered {response.status}")
        with drawn.get_lock():
            drawn.value += 1

def device_calls():
    """CALLS list-serials calls on one keep-alive connection, one every 2 ms; their latencies in ms."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    path = f"/wallet/v1/devices/bench-device/registrations/{pass_type}"
    latencies = []
    for _ in range(calls):
        started = time.perf_counter()
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        latencies.append((time.perf_counter() - started) * 1000)
        if response.status != 200 or b"device-1" not in body:
            raise SystemExit(f"list serials answered {response.status}: {body[:200]!r}")
        time.sleep(0.002)
    return latencies

def summary(latencies):
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, int(round(0.99 * len(ordered))) - 1)]
    return f"{statistics.median(ordered):.2f} ms | {p99:.2f} ms | {ordered[-1]:.2f} ms"

idle = device_calls()
stop, drawn = multiprocessing.Event(), multiprocessing.Value("i", 0)
clients = [multiprocessing.Process(target=previews, args=(stop, drawn, 600)) for _ in range(2)]
for client in clients:
    client.start()
time.sleep(1.0)  # both clients drawing before the first measured call
started, before = time.monotonic(), drawn.value
busy = device_calls()
elapsed, during = time.monotonic() - started, drawn.value - before
stop.set()
for client in clients:
    client.join(60)
    if client.exitcode != 0:
        raise SystemExit("a preview client failed")
print("| device call (`GET /wallet/v1/devices/{d}/registrations/{type}`, SQLite) | median | p99 | max | previews drawn meanwhile |")
print("|---|---|---|---|---|")
print(f"| idle, {calls} calls | {summary(idle)} | — |")
print(f"| while 2 clients draw `POST /api/v1/templates/loyalty/preview?scale=3`, {calls} calls | {summary(busy)} | {during} in {elapsed:.1f} s ({during / elapsed:.1f}/s) |")
PY
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
