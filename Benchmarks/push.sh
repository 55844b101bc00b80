#!/usr/bin/env bash
# Push refresh throughput and latency against the APNs stand-in, on SQLite.
#
#   Benchmarks/push.sh [DEVICES] [UPDATES]     (defaults: 10000 and 200)
#
# Starts the stand-in (Tests/Support/apns-standin, needs `pip install h2`) with a server certificate
# from the dev root CA, and `passwright serve` (release build) pushing to it. Registers DEVICES
# devices for one pass, PATCHes it once and measures pushes per second from the PATCH to the
# stand-in's last recorded request (and over how many connections); then updates a one-device pass
# UPDATES times, one after the other, and measures the time from sending the PATCH to the stand-in
# receiving the push (p50/p99; the push worker wakes when a push is queued). Prints a
# markdown table, with the server's CPU a push over the fan-out (from /proc).
#
#   PERF_DATA=FILE Benchmarks/push.sh ...
#   PUSH_RATE=N Benchmarks/push.sh ...
#
# Also records the server over the fan-out with `perf record --call-graph dwarf` into FILE (DWARF
# unwinding reaches into libcurl, nghttp2 and OpenSSL, which have no frame pointers); PUSH_RATE paces
# the pushes (`serve --push-rate`, unpaced by default) as a wave's pace would.
#
#   Benchmarks/push.sh --nginx [DEVICES] [UPDATES]
#
# The same against nginx (Debian's, with libnginx-mod-http-echo) instead of the Python stand-in, so
# the receiver is not the limit: an HTTP/2 TLS server that requires the pass type's client
# certificate (the dev WWDR chain), reads each request body (echo_read_request_body) and answers 200,
# logging each request as the stand-in records it. A second nginx server, the same but without
# client certificates (h2load cannot send one), gives the limit: h2load POSTing to it over one
# connection with 100 concurrent streams.
set -euo pipefail
cd "$(dirname "$0")/.."
receiver=standin
if [ "${1:-}" = --nginx ]; then receiver=nginx; shift; fi
devices=${1:-10000}
updates=${2:-200}

if [ -z "${PASSWRIGHT_BIN:-}" ]; then
  swift build -c release --product passwright >&2
  PASSWRIGHT_BIN=$PWD/.build/release/passwright
fi
bin=$PASSWRIGHT_BIN
work=$(mktemp -d /tmp/passwright-push.XXXXXX)
cleanup() {
  [ -n "${server:-}" ] && kill "$server" 2>/dev/null || true
  [ -n "${standin:-}" ] && kill "$standin" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
pass_type=pass.dev.passwright.loyalty
$bin certs dev --out "$work/ids" --pass-type-id $pass_type >/dev/null

source Benchmarks/lib/apns-receiver.sh
start_apns_receiver "$receiver"

admin=$(openssl rand -hex 24)
port=18098
PASSWRIGHT_ADMIN_TOKEN=$admin $bin serve --port $port --database "sqlite:$work/passwright.sqlite" --templates Templates \
  --identities "$work/ids" --data-dir "$work/data" --log-level error --quiet-hours off --notification-spacing 0 --push-rate ${PUSH_RATE:-100000} \
  --push on --apns-url "https://127.0.0.1:$apns_port" --apns-ca-file "$work/ids/dev-ca/root.pem" 2>"$work/serve.log" &
server=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done

PERF_DATA=${PERF_DATA:-} SERVER_PID=$server ADMIN=$admin PORT=$port PASS_TYPE=$pass_type RECORD="$work/requests.jsonl" python3 - "$devices" "$updates" <<'PY'
import concurrent.futures, http.client, json, os, statistics, subprocess, sys, threading, time

devices, updates = int(sys.argv[1]), int(sys.argv[2])
port, admin, pass_type, record = int(os.environ["PORT"]), os.environ["ADMIN"], os.environ["PASS_TYPE"], os.environ["RECORD"]
local = threading.local()

def request(method, path, body=None, headers=None):
    """One request on this thread's keep-alive connection; returns (status, body)."""
    if not hasattr(local, "connection"):
        local.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = dict(headers or {})
    data = None if body is None else json.dumps(body).encode()
    if data is not None:
        headers["Content-Type"] = "application/json"
    local.connection.request(method, path, body=data, headers=headers)
    response = local.connection.getresponse()
    return response.status, response.read()

def admin_request(method, path, body=None):
    status, data = request(method, path, body, {"Authorization": f"Bearer {admin}"})
    if status >= 300:
        sys.exit(f"{method} {path}: HTTP {status} {data[:300]!r}")
    return json.loads(data) if data else None

def issue(serial, auth):
    record_data = json.load(open("Templates/samples/loyalty.json"))
    record_data["authenticationToken"] = auth
    admin_request("POST", "/api/v1/passes", {"template": "loyalty", "serialNumber": serial, "data": record_data})

def register(device, token, serial, auth):
    status, data = request("POST", f"/wallet/v1/devices/{device}/registrations/{pass_type}/{serial}",
                           {"pushToken": token}, {"Authorization": f"ApplePass {auth}"})
    if status != 201:
        raise RuntimeError(f"register {device}: HTTP {status} {data[:200]!r}")

def records():
    try:
        with open(record, encoding="utf-8") as file:
            lines = file.read().split("\n")[:-1]
    except FileNotFoundError:
        return []
    return [json.loads(line) for line in lines]

def record_count():
    """How many requests the receiver has recorded so far: a newline count, so polling while the
    fan-out runs costs the driver next to nothing (parsing every record each time took a quarter of
    the machine's CPU away from the server being measured)."""
    try:
        with open(record, "rb") as file:
            return file.read().count(b"\n")
    except FileNotFoundError:
        return 0

def server_cpu_seconds():
    """User + system CPU the server has used so far, from /proc (the fan-out's cost per push)."""
    with open(f"/proc/{os.environ['SERVER_PID']}/stat") as file:
        fields = file.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

def wait_queued_zero():
    while admin_request("GET", "/api/v1/push/stats")["queued"] != 0:
        time.sleep(0.01)

# 1. Fan-out: DEVICES devices on one pass, one PATCH.
auth = "bench-fanout-" + os.urandom(8).hex()
issue("FANOUT-1", auth)
tokens = [format(index, "064x") for index in range(devices)]
started = time.time()
with concurrent.futures.ThreadPoolExecutor(16) as pool:
    list(pool.map(lambda index: register(f"fanout-{index}", tokens[index], "FANOUT-1", auth), range(devices)))
registration_seconds = time.time() - started
profiler = None
if os.environ["PERF_DATA"]:
    profiler = subprocess.Popen(["perf", "record", "-F", "300", "--call-graph", "dwarf", "-p", os.environ["SERVER_PID"],
                                 "-o", os.environ["PERF_DATA"]], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1)  # attached before the PATCH
cpu_before = server_cpu_seconds()
patched = time.time()
queued = admin_request("PATCH", f"/api/v1/passes/{pass_type}/FANOUT-1", {"data": {"points": 1}})["pushesQueued"]
while record_count() < devices:
    time.sleep(0.05)
fanout_cpu = server_cpu_seconds() - cpu_before
if profiler:
    profiler.send_signal(2)
    profiler.wait()
seen = records()
fanout_seconds = seen[-1]["time"] - patched
wait_queued_zero()
seen = records()
distinct = len({line["path"] for line in seen})
connections = len({line["connection"] for line in seen})

# 2. Latency: one device, UPDATES updates one after the other.
auth = "bench-latency-" + os.urandom(8).hex()
issue("LATENCY-1", auth)
token = "ab" * 32
register("latency-device", token, "LATENCY-1", auth)
path = f"/3/device/{token}"
latencies = []
for update in range(updates):
    before = len(records())
    sent = time.time()
    admin_request("PATCH", f"/api/v1/passes/{pass_type}/LATENCY-1", {"data": {"points": update + 2}})
    while not (fresh := [line for line in records()[before:] if line["path"] == path]):
        time.sleep(0.002)
    latencies.append((fresh[0]["time"] - sent) * 1000)
    wait_queued_zero()
latencies.sort()
p50 = statistics.median(latencies)
p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
stats = admin_request("GET", "/api/v1/push/stats")

print("| measurement | result |")
print("|---|---|")
print(f"| devices registered (16 keep-alive clients) | {devices} in {registration_seconds:.1f} s ({devices / registration_seconds:.0f}/s) |")
print(f"| pushes queued by one PATCH | {queued} |")
print(f"| fan-out: PATCH to last push received | {fanout_seconds:.2f} s |")
print(f"| fan-out: pushes per second | {devices / fanout_seconds:.0f} |")
print(f"| fan-out: server CPU a push (user + system, PATCH to last push) | {fanout_cpu / devices * 1e6:.0f} µs |")
print(f"| fan-out: requests / distinct tokens / connections | {len(seen)} / {distinct} / {connections} |")
print(f"| latency PATCH → push received, {updates} updates, p50 | {p50:.0f} ms |")
print(f"| latency PATCH → push received, {updates} updates, p99 | {p99:.0f} ms |")
print(f"| latency min / max | {latencies[0]:.0f} ms / {latencies[-1]:.0f} ms |")
print(f"| push stats at the end: sent, failures | {stats['sent']:.0f}, {json.dumps(stats['failuresByReason'])} |")
PY
if [ "$receiver" = nginx ]; then
  limit=$(h2load_limit)
  echo "| limit: h2load against the same nginx (1 connection, 100 streams, POST with a body) | $limit requests/s |"
  echo
  echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); nginx $(nginx -v 2>&1 | sed 's|.*/||') (1 worker) requiring the client certificate, on the same machine; SQLite"
else
  echo
  echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); stand-in (Python h2, one process) on the same machine; SQLite"
fi
