#!/usr/bin/env bash
# What a console sign-in costs the server: one argon2id hash at Passwords' parameters, beside RFC 9106's
# second recommended set and, with a release binary, the CMS signature, measured in the same run.
#
#   Benchmarks/signin.sh [COUNT]                                   (default: 51 hashes per parameter set)
#   PASSWRIGHT_BIN=/path/to/passwright Benchmarks/signin.sh        (adds the signature row)
#
# Builds Benchmarks/argon2id.c against Debian's libargon2 (the library and the call Passwords uses) and
# hashes COUNT times per parameter set: PasswordHasher's defaults (m=19456 KiB, t=2, p=1) pinned to
# core 0, and m=65536 KiB, t=3, p=4 on both cores (4 lanes could use 4). Prints a markdown table: the
# median wall time of a hash, its median CPU time (every lane's thread), and hashes per second per core
# (1000 / CPU ms); with PASSWRIGHT_BIN, the CPU time of one CMS signature on core 0 (`passwright bench`
# under /usr/bin/time) and each hash's CPU time as a number of signatures. CPU times, not wall times,
# so that other work sharing the cores does not skew the ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-51}
work=$(mktemp -d /tmp/passwright-signin.XXXXXX)
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/argon2id" Benchmarks/argon2id.c $(pkg-config --cflags --libs libargon2)

signature_ms=""
if [ -n "${PASSWRIGHT_BIN:-}" ]; then
  "$PASSWRIGHT_BIN" certs dev --out "$work/ids" --pass-type-id pass.dev.passwright.loyalty >/dev/null
  # CPU time per signature (the process's, over all of them), which another load on the core does not inflate.
  /usr/bin/time -f "%U %S" -o "$work/time" taskset -c 0 "$PASSWRIGHT_BIN" bench --identities "$work/ids" --seconds 5 >"$work/bench.json"
  signature_ms=$(python3 -c "import json; cpu = sum(map(float, open('$work/time').read().split())); print(1000 * cpu / json.load(open('$work/bench.json'))['signatures'])")
fi

row() {  # row CORE_LIST CORES MEMORY_KIB ITERATIONS PARALLELISM
  taskset -c "$1" "$work/argon2id" "$3" "$4" "$5" "$count" | python3 -c '
import statistics, sys
cores, m, t, p, signature = sys.argv[1:]
wall, cpu = zip(*(map(float, line.split()) for line in sys.stdin))
wall, cpu = statistics.median(wall), statistics.median(cpu)
versus = f"{cpu / float(signature):.0f} signatures" if signature else "—"
print(f"| m={int(m) // 1024} MiB, t={t}, p={p} | {cores} | {wall:.1f} ms | {cpu:.1f} ms | {1000 / cpu:.1f} | {versus} |")
' "$2" "$3" "$4" "$5" "$signature_ms"
}

echo "| argon2id parameters | cores | hash, median wall | hash, median CPU | hashes/s per core | CPU vs. one signature |"
echo "|---|---|---|---|---|---|"
row 0 1 19456 2 1
row 0,1 2 65536 3 4
if [ -n "$signature_ms" ]; then
  printf '| CMS signature (`passwright bench`) | 1 | — | %.3f ms | %.0f | limit |\n' "$signature_ms" "$(python3 -c "print(1000 / $signature_ms)")"
fi
echo "$count hashes per set; machine: $(nproc) cores, $(uname -m), load average $(cut -d' ' -f1-3 /proc/loadavg)"
