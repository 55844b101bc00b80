#!/usr/bin/env bash
# Crash safety: SIGKILLs `passwright serve` (push on, against the APNs stand-in) under a steady write
# load, restarts it on the same data and checks that no acknowledged registration or update was lost,
# that SQLite's integrity_check answers ok while it is down, and that every owed push is delivered.
# See Tests/Crash/crash.py for the checks.
#
#   scripts/crash.sh [--rounds 20] [--engine sqlite|postgres] [--threads 4] [--passes 40] [--push-lease 5] [--push-wait 20] [--seed N] [--bulk-records 20000]
#   PASSWRIGHT_BIN=/path/to/passwright scripts/crash.sh     (skip the debug build)
#
# Needs python3 with the h2 package (pip install h2) for the stand-in.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -c 'import h2' 2>/dev/null || { echo "crash: the APNs stand-in needs h2: pip install h2" >&2; exit 2; }
if [ -n "${PASSWRIGHT_BIN:-}" ]; then
  bin=$PASSWRIGHT_BIN
else
  swift build --product passwright >&2
  bin=.build/debug/passwright
fi
exec python3 Tests/Crash/crash.py --bin "$bin" "$@"
