#!/usr/bin/env bash
# What reading a template's roll-out costs PostgreSQL at a million passes.
#
#   Benchmarks/rollout-counts.sh [PASSES]                    (default: 1000000)
#   PASSWRIGHT_BIN=/path/to/passwright Benchmarks/rollout-counts.sh
#
# Starts a throwaway PostgreSQL and `passwright serve --push off` (release build) with the loyalty
# sample template, issues one pass through the API and clones it in SQL into PASSES passes, then
# VACUUM ANALYZE. Prints, best of three `EXPLAIN ANALYZE` execution times, with every pass on the
# current version and again with every pass behind it: the roll-out worker's question (is any pass
# of a template behind?, `templatesBehind`), the counts the template list and one template's page
# read (`templateRollouts`), and, as the reference measured in the same run, the grouped join of
# every pass the server used before (issue #29: 0.39 s of PostgreSQL's CPU at a million passes, on
# every roll-out look and every template page); then the wall time of GET /api/v1/templates/loyalty.
# Prints a markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
passes=${1:-1000000}
source Benchmarks/lib/setup.sh
bench_setup rollout-counts
serve_loyalty_on_postgres 18099
curl -sf -X POST "$PASSWRIGHT_SERVER/api/v1/passes" "${admin[@]}" -H "Content-Type: application/json" \
  -d '{"template":"loyalty","serialNumber":"seed","data":{"member":{"id":"M-1","name":"Ada"},"points":10,"tier":"Gold"}}' >/dev/null
loaded=$SECONDS
sql "INSERT INTO passes (pass_type_identifier, serial_number, template, data, overrides, authentication_token,
                         update_tag, voided, created_at, updated_at, template_version)
     SELECT p.pass_type_identifier, 'bench-' || n, p.template, p.data, p.overrides, md5('token-' || n) || md5('salt-' || n),
            nextval('update_tag_sequence'), FALSE, p.created_at, p.updated_at, p.template_version
     FROM passes p, generate_series(2, $passes) AS n WHERE p.serial_number = 'seed'"
sql "VACUUM ANALYZE passes"
sql "ANALYZE templates"
loaded=$((SECONDS - loaded))

# The statements as the server sends them (WalletStore.templatesBehindQuery, templateRolloutsQuery)
# and the grouped join it sent before, for reference.
probe="SELECT name, current_version FROM templates WHERE current_version > 0
  AND EXISTS (SELECT 1 FROM template_version_passes counts
              WHERE counts.template = templates.name AND counts.version < templates.current_version AND counts.passes > 0)
  ORDER BY name"
counts="SELECT templates.name AS name, templates.current_version AS current_version,
  CAST((SELECT COALESCE(SUM(counts.passes), 0) FROM template_version_passes counts
        WHERE counts.template = templates.name AND counts.version < templates.current_version) AS BIGINT) AS behind,
  CAST((SELECT COALESCE(SUM(counts.passes), 0) FROM template_version_passes counts
        WHERE counts.template = templates.name AND counts.version >= templates.current_version) AS BIGINT) AS on_current
  FROM templates WHERE templates.current_version > 0"
one="$counts AND templates.name = 'loyalty' ORDER BY templates.name"
counts="$counts ORDER BY templates.name"
before="SELECT templates.name AS name, templates.current_version AS current_version, COUNT(passes.serial_number) AS passes,
  COALESCE(SUM(CASE WHEN passes.template_version < templates.current_version THEN 1 ELSE 0 END), 0) AS behind
  FROM templates LEFT JOIN passes ON passes.template = templates.name WHERE templates.current_version > 0
  GROUP BY templates.name, templates.current_version ORDER BY templates.name"
best_ms() {  # best_ms SQL: the best of three EXPLAIN ANALYZE execution times, in ms
  for _ in 1 2 3; do
    psql -qAt "$pg_url" -c "EXPLAIN (ANALYZE, FORMAT JSON) $1" | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["Execution Time"])'
  done | sort -g | head -n 1
}
declare -A ms
for state in current behind; do
  # "behind": the template's current version moved past every pass, as an upload does before its roll-out.
  [ "$state" = behind ] && sql "UPDATE templates SET current_version = current_version + 1 WHERE name = 'loyalty'"
  ms[$state,probe]=$(best_ms "$probe"); ms[$state,counts]=$(best_ms "$counts"); ms[$state,one]=$(best_ms "$one"); ms[$state,before]=$(best_ms "$before")
done
sql "UPDATE templates SET current_version = current_version - 1 WHERE name = 'loyalty'"
page=$(for _ in 1 2 3; do curl -s -o /dev/null -w '%{time_total}\n' "${admin[@]}" "$PASSWRIGHT_SERVER/api/v1/templates/loyalty"; done | sort -g | head -n 1)

echo "$passes passes loaded in ${loaded} s; PostgreSQL execution time, best of 3 (ms):"
echo
echo "| statement | every pass current | every pass behind |"
echo "|---|---|---|"
echo "| the roll-out worker's probe (templatesBehind) | ${ms[current,probe]} | ${ms[behind,probe]} |"
echo "| the template list's counts (templateRollouts) | ${ms[current,counts]} | ${ms[behind,counts]} |"
echo "| one template's counts (templateRollouts(named:)) | ${ms[current,one]} | ${ms[behind,one]} |"
echo "| reference: the grouped join of every pass, used for all three before | ${ms[current,before]} | ${ms[behind,before]} |"
echo
echo "GET /api/v1/templates/loyalty (every pass current), best of 3: ${page} s"
