#!/usr/bin/env bash
# Quick start: installs what is missing, builds Passwright, makes development identities for the
# sample templates and the sample order, builds one sample pass per template plus a batch and the
# sample order, verifies them, and starts the
# web service on http://127.0.0.1:8080 with embedded SQLite (./data). Ctrl-C stops it.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
swift build -c release --product passwright
bin=.build/release/passwright
identities=${PASSWRIGHT_IDENTITIES:-Certificates}

for template in Templates/*/; do
  [ -f "$template/pass.json" ] || continue
  id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["passTypeIdentifier"])' "$template/pass.json")
  team=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["teamIdentifier"])' "$template/pass.json")
  if [ ! -f "$identities/$id/certificate.pem" ]; then
    $bin certs dev --out "$identities" --pass-type-id "$id" --team-id "$team" >/dev/null
    echo "run: made a development identity for $id (NOT FOR PRODUCTION)"
  fi
done

for order in Templates/orders/*/; do
  [ -f "$order/order.json" ] || continue
  id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["orderTypeIdentifier"])' "$order/order.json")
  if [ ! -f "$identities/$id/certificate.pem" ]; then
    $bin certs dev --out "$identities" --order-type-id "$id" >/dev/null
    echo "run: made a development Order Type ID identity for $id (NOT FOR PRODUCTION)"
  fi
done

mkdir -p out
for template in Templates/*/; do
  name=$(basename "$template")
  [ -f "Templates/samples/$name.json" ] || continue
  $bin build "$template" --data "Templates/samples/$name.json" --identities "$identities" --out "out/$name.pkpass"
done
$bin verify out/loyalty.pkpass --ca "$identities/dev-ca/root.pem"
for order in Templates/orders/*/; do
  [ -f "$order/order.json" ] || continue
  $bin build "$order" --identities "$identities" --out "out/$(basename "$order").order"
done
$bin verify out/shop.order --ca "$identities/dev-ca/root.pem"
$bin batch Templates/loyalty --input Templates/samples/loyalty.csv --out-dir out/batch --identities "$identities" --overwrite

cat <<TXT

Sample passes are in ./out. The web service starts now on http://127.0.0.1:8080.
Issue a pass from another terminal:

  curl -s -X POST http://127.0.0.1:8080/api/v1/passes \\
    -H "Authorization: Bearer \$(cat data/admin-token)" -H "Content-Type: application/json" \\
    -d '{"template": "loyalty", "data": {"member": {"id": "M-1", "name": "Ada Okafor"}, "points": 1280, "tier": "Gold"}}'

The answer holds a downloadURL that serves the signed pass. An order from the shop template:

  curl -s -X POST http://127.0.0.1:8080/api/v1/orders \\
    -H "Authorization: Bearer \$(cat data/admin-token)" -H "Content-Type: application/json" \\
    -d '{"template": "shop", "order": {"orderNumber": "1002", "status": "open"}}'

API: http://127.0.0.1:8080/openapi.json

TXT
# Development identities cannot push to Apple's APNs, so push refresh is off here (updates stay queued).
exec $bin serve --identities "$identities" --templates Templates --data-dir data --push off
