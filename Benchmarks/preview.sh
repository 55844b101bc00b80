#!/usr/bin/env bash
# Preview cost against the signature, measured in the same run on the same machine.
#
#   Benchmarks/preview.sh [SECONDS]      (default 5 s per measure)
#   PASSWRIGHT_BIN=/path/to/passwright Benchmarks/preview.sh
#
# Prints a markdown table: the CMS sign ceiling on one core (`passwright bench`), the batch compile
# rate of the loyalty sample with --jobs 1 to memory, uncached preview renders per second of the same
# sample (front, @2x, PNG) on one core (`passwright bench --preview`: images decoded, text shaped,
# PNG written, every time), and the preview route served from its cache over HTTP (wrk, 1 thread,
# 8 connections) beside the cached pass download on the same server, each also as milliseconds per
# picture so it reads against the 0.3 ms a signature costs.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}
command -v wrk >/dev/null || apt-get install -y -qq wrk >/dev/null
source Benchmarks/lib/setup.sh
bench_setup preview
$bin certs dev --out "$work/ids" --pass-type-id pass.dev.passwright.loyalty >/dev/null

json() { python3 -c "import json,sys; print(json.load(sys.stdin)['$1'])"; }
ceiling=$(taskset -c 0 $bin bench --identities "$work/ids" --seconds "$seconds" | json perSecond)
render=$(taskset -c 0 $bin bench --preview Templates/loyalty --record Templates/samples/loyalty.json --seconds "$seconds" | json perSecond)

python3 - "$work/records.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open("Templates/samples/loyalty.csv", newline="")))
header, body = rows[0], rows[1:]
serial = header.index("serialNumber")
with open(sys.argv[1], "w", newline="") as out:
    writer = csv.writer(out)
    writer.writerow(header)
    for i in range(5000):
        row = list(body[i % len(body)])
        row[serial] = "P%07d" % i
        writer.writerow(row)
PY
memory=$(mktemp -d /dev/shm/passwright-preview.XXXXXX)
/usr/bin/time -f "%e" -o "$work/time" taskset -c 0 $bin batch Templates/loyalty --input "$work/records.csv" --out-dir "$memory/out" \
  --identities "$work/ids" --jobs 1 2>/dev/null
batch=$(python3 -c "print(round(5000 / float(open('$work/time').read().split()[0])))")
rm -rf "$memory"

admin=bench-admin-token-0123456789
port=18097
PASSWRIGHT_ADMIN_TOKEN=$admin taskset -c 0 $bin serve --port $port --database "sqlite:$work/preview.sqlite" --templates Templates \
  --identities "$work/ids" --data-dir "$work/data" --log-level error --push off 2>"$work/serve.log" &
server=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.2; done
export TOKEN=benchtoken-0123456789abcdef ADMIN=$admin
curl -sf -X POST "http://127.0.0.1:$port/api/v1/passes" -H "Authorization: Bearer $admin" -H "Content-Type: application/json" \
  -d "{\"template\":\"loyalty\",\"serialNumber\":\"preview-1\",\"data\":{\"authenticationToken\":\"$TOKEN\",\"member\":{\"id\":\"M-1\",\"name\":\"Ada Okafor\"},\"points\":1280,\"tier\":\"Gold\"}}" >/dev/null
base="http://127.0.0.1:$port"
cat >"$work/admin.lua" <<'LUA'
wrk.headers["Authorization"] = "Bearer " .. os.getenv("ADMIN")
LUA
curl -sf -H "Authorization: Bearer $admin" "$base/api/v1/passes/pass.dev.passwright.loyalty/preview-1/preview" -o "$work/first.png"
wrk_rate() {  # wrk_rate URL SCRIPT -> requests per second
  taskset -c 1 wrk -t1 -c8 -d"${seconds}s" -s "$2" "$1" | awk '/Requests\/sec/ {print int($2)}'
}
cached=$(wrk_rate "$base/api/v1/passes/pass.dev.passwright.loyalty/preview-1/preview" "$work/admin.lua")
download=$(wrk_rate "$base/wallet/v1/passes/pass.dev.passwright.loyalty/preview-1" Benchmarks/wrk/get-pass.lua)

ms() { python3 -c "print(f'{1000 / $1:.3f} ms')"; }
cat <<TABLE
| measure (loyalty sample, front, @2x) | per second | each | vs. the signature |
|---|---|---|---|
| CMS signature, 1 core (\`passwright bench\`) | $ceiling | $(ms "$ceiling") | limit |
| \`batch --jobs 1\` to memory, 5,000 passes | $batch | $(ms "$batch") | $(python3 -c "print(f'{$ceiling / $batch:.2f}× a signature')") |
| preview, uncached, 1 core (\`passwright bench --preview\`) | $render | $(ms "$render") | $(python3 -c "print(f'{$ceiling / $render:.1f}× a signature')") |
| preview, cached, over HTTP (server on 1 core) | $cached | $(ms "$cached") | $(python3 -c "print(f'{$ceiling / $cached:.2f}× a signature')") |
| pass download, cached, over HTTP (same server) | $download | $(ms "$download") | $(python3 -c "print(f'{$ceiling / $download:.2f}× a signature')") |
TABLE
echo "picture: $(wc -c <"$work/first.png") bytes; machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
