#!/usr/bin/env bash
# Batch throughput against the signing ceiling, measured in the same run on the same key.
#
#   Benchmarks/batch.sh [RECORDS] [RSS_RECORDS]     (defaults: 10000 and 100000)
#
# Prints a markdown table: CMS signatures per second on one core (`passwright bench`), then
# `passwright batch` passes per second with --jobs 1 and --jobs 2 on the loyalty sample template,
# each as a share of the ceiling (of 1 core and of 2 cores), and peak RSS for RECORDS and
# RSS_RECORDS passes (flat memory means the second is not bigger than the first). Passes are written
# to disk (a folder under /tmp) and, separately, to memory (/dev/shm), which shows how much of the
# time is the compiler and how much is the file system creating 10,000 files; Benchmarks/write-files.c
# measures the writing alone (the same files, nothing built), the other limit a job works within.
set -euo pipefail
cd "$(dirname "$0")/.."
records=${1:-10000}
rss_records=${2:-100000}
command -v /usr/bin/time >/dev/null || { apt-get install -y -qq time >/dev/null; }

swift build -c release --product passwright >&2
bin=.build/release/passwright
work=$(mktemp -d /tmp/passwright-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
$bin certs dev --out "$work/ids" --pass-type-id pass.dev.passwright.loyalty >/dev/null

source Benchmarks/lib/records.sh
make_csv "$records" "$work/records.csv"
make_csv "$rss_records" "$work/rss.csv"

ceiling=$($bin bench --identities "$work/ids" --seconds 5 | python3 -c 'import json,sys; print(json.load(sys.stdin)["perSecond"])')

memory=$(mktemp -d /dev/shm/passwright-bench.XXXXXX)
trap 'rm -rf "$work" "$memory"' EXIT

# The writing's own limit: RECORDS copies of one built pass written as batch writes them, built nothing.
cc -O2 -o "$work/write-files" Benchmarks/write-files.c
head -2 "$work/records.csv" >"$work/one.csv"
$bin batch Templates/loyalty --input "$work/one.csv" --out-dir "$work/one" --identities "$work/ids" >/dev/null 2>&1
sample=$(ls "$work"/one/*.pkpass)
disk_files=$("$work/write-files" "$records" "$sample" "$work/files"); rm -rf "$work/files"
memory_files=$("$work/write-files" "$records" "$sample" "$memory/files"); rm -rf "$memory/files"
run_batch() {  # run_batch JOBS CSV OUT -> "passes_per_second peak_rss_kib"
  rm -rf "$3"
  /usr/bin/time -f "%e %M" -o "$work/time" $bin batch Templates/loyalty --input "$2" --out-dir "$3" \
    --identities "$work/ids" --jobs "$1" 2>/dev/null
  read -r seconds rss <"$work/time"
  count=$(ls "$3" | wc -l)
  rm -rf "$3"
  python3 -c "print(round($count / $seconds), $rss)"
}
read -r one one_rss < <(run_batch 1 "$work/records.csv" "$work/out")
read -r two two_rss < <(run_batch 2 "$work/records.csv" "$work/out")
read -r mem_one _ < <(run_batch 1 "$work/records.csv" "$memory/out")
read -r mem_two _ < <(run_batch 2 "$work/records.csv" "$memory/out")
read -r _ big_rss < <(run_batch 2 "$work/rss.csv" "$work/out")

pct() { python3 -c "print(f'{100 * $1 / $2:.0f}%')"; }
# Signing and writing one pass, one after the other on one core: the most one job can do.
serial() { python3 -c "print(round(1 / (1 / $1 + 1 / $2)))"; }
disk_limit=$(serial "$ceiling" "$disk_files")
memory_limit=$(serial "$ceiling" "$memory_files")
cat <<TABLE
| measure | value | vs. limit |
|---|---|---|
| CMS sign ceiling, 1 core (\`passwright bench\`) | $ceiling signatures/s | limit |
| writing $records files of a pass's size ($(($(stat -c %s "$sample") / 1024)) KiB), to disk (\`Benchmarks/write-files.c\`) | $disk_files files/s | limit |
| the same, to memory (/dev/shm) | $memory_files files/s | limit |
| signing and writing, one after the other (to disk / to memory) | $disk_limit / $memory_limit passes/s | limit |
| \`batch --jobs 1\`, $records passes | $one passes/s | $(pct "$one" "$ceiling") of 1-core ceiling; $(pct "$one" "$disk_limit") of signing and writing |
| \`batch --jobs 2\`, $records passes | $two passes/s | $(pct "$two" "$((2 * ceiling))") of 2-core ceiling; $(python3 -c "print(f'{$two / $one:.2f}')")× jobs 1 |
| \`batch --jobs 1\`, written to memory (/dev/shm) | $mem_one passes/s | $(pct "$mem_one" "$ceiling") of 1-core ceiling; $(pct "$mem_one" "$memory_limit") of signing and writing |
| \`batch --jobs 2\`, written to memory (/dev/shm) | $mem_two passes/s | $(pct "$mem_two" "$((2 * ceiling))") of 2-core ceiling; $(python3 -c "print(f'{$mem_two / $mem_one:.2f}')")× jobs 1 |
| peak RSS, $records passes (jobs 2) | $((two_rss / 1024)) MiB | |
| peak RSS, $rss_records passes (jobs 2) | $((big_rss / 1024)) MiB | $(python3 -c "print(f'{$big_rss / $two_rss:.2f}')")× the $records-pass run |
TABLE
echo "machine: $(nproc) cores, $(uname -m), load average $(cut -d' ' -f1-3 /proc/loadavg)"
