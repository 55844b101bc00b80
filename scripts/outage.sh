#!/usr/bin/env bash
# Database outages: a throwaway PostgreSQL stopped for a few seconds under write load (only 503s with
# Retry-After and /readyz 503 meanwhile, writes back within 10 s, nothing acknowledged lost), and —
# as root — a SQLite database on a 3 MiB tmpfs that fills (507 naming the file, /readyz 503 "full",
# writes resume once space is freed). See Tests/Outage/outage.py for the checks.
#
#   scripts/outage.sh [--scenario postgres|sqlite-full|all] [--outage 5] [--threads 3]
#   PASSWRIGHT_BIN=/path/to/passwright scripts/outage.sh     (skip the debug build)
set -euo pipefail
cd "$(dirname "$0")/.."

[ -n "${PASSWRIGHT_BIN:-}" ] || swift build --product passwright >&2
exec python3 Tests/Outage/outage.py --bin "${PASSWRIGHT_BIN:-.build/debug/passwright}" "$@"
