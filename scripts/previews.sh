#!/usr/bin/env bash
# Regenerates the README's pictures: docs/pictures/<template>.png for every sample template in
# Templates/ (the folders with a pass.json), filled with its record Templates/samples/<template>.json,
# front and back side by side at @2x, as `passwright preview` draws them. Run it after changing a
# template or the preview, and commit the pictures with the change.
#   scripts/previews.sh            # debug build (what the tests use)
#   CONFIGURATION=release scripts/previews.sh
set -euo pipefail
cd "$(dirname "$0")/.."

configuration=${CONFIGURATION:-debug}
swift build -c "$configuration" --product passwright -j "${JOBS:-1}"
bin=.build/$configuration/passwright
out=docs/pictures
# Kept small enough to sit in the repository and load fast on a README page.
limit=$((300 * 1024))

mkdir -p "$out"
for template in Templates/*/; do
  name=$(basename "$template")
  [ -f "$template/pass.json" ] || continue
  record=Templates/samples/$name.json
  if [ ! -f "$record" ]; then
    echo "previews: $name has no $record" >&2
    exit 1
  fi
  $bin preview "$template" --record "$record" --side both --scale 2 --out "$out/$name.png"
  size=$(wc -c < "$out/$name.png")
  if [ "$size" -gt "$limit" ]; then
    echo "previews: $out/$name.png is $size bytes, more than $limit" >&2
    exit 1
  fi
done
