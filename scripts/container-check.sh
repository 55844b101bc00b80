#!/usr/bin/env bash
# Builds the container image from this checkout and checks it the way a new user would run it:
#   scripts/container-check.sh
# With docker (a running daemon) or podman (installed from Debian when neither works). Where the
# official base images cannot be pulled, it makes local stand-ins under the same names and says so:
# a debootstrap Debian 12 for debian:bookworm-slim, a Swift image from this machine's toolchain
# (SWIFT_TOOLCHAIN, default /opt/swift) for swift:6.3-bookworm, Debian's PostgreSQL 15 for
# postgres:15-bookworm. Then:
#   1. image: /healthz, the image's own HEALTHCHECK reports healthy, it runs as a non-root user,
#      identities the user cannot read make /readyz 503 with the reason, a pass is issued and
#      downloaded and `passwright verify` accepts it, its preview is a PNG of the right size whose
#      text OCR reads back (Cairo, Pango, zint and fonts inside), the console sign-in page loads, a
#      new template version pushed with the image's CLI rolls out to 24 passes (the release build's
#      write pipeline),
#      SIGTERM stops it with exit 0 within 10 s; the image's libraries are exactly the binary's
#      NEEDED entries (packages/runtime.list, both ways);
#   2. compose with PostgreSQL: the server comes up after the database, issues a pass, and its row
#      is in PostgreSQL, which runs with the settings compose.yaml gives it.
# Takes several minutes (the release build most of them); scripts/test.sh runs it as the stage `container`.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=${CONTAINER_CHECK_DIR:-/tmp/passwright-container-check}
toolchain=${SWIFT_TOOLCHAIN:-/opt/swift}
image=passwright:check
name=passwright-check
project=pwcheck
mkdir -p "$work"
command -v curl >/dev/null || { echo "container-check: curl is missing: scripts/setup.sh installs it" >&2; exit 2; }

say() { printf '== %s\n' "$*"; }
ok() { printf 'ok   %s\n' "$*"; }
fail() { printf 'FAIL %s\n' "$*" >&2; exit 1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# --- engine -------------------------------------------------------------------------------------
engine=""
if command -v docker >/dev/null && docker info >/dev/null 2>&1; then
  engine=docker
elif command -v podman >/dev/null; then
  engine=podman
else
  say "neither docker nor podman works here: installing packages/container.list from Debian"
  engine=podman
fi
if [ "$engine" = podman ]; then
  as_root scripts/setup.sh container  # only what is missing
  # crun cannot set RLIMIT_NOFILE in some sandboxes and cgroups may be hybrid: runc with cgroupfs works.
  if ! grep -qs 'runtime = "runc"' /etc/containers/containers.conf; then
    say "configuring podman: runc, cgroupfs, fixed ulimits (/etc/containers/containers.conf)"
    as_root mkdir -p /etc/containers
    as_root tee /etc/containers/containers.conf >/dev/null <<'CONF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
CONF
  fi
  build_format=(--format docker)   # podman's OCI format drops HEALTHCHECK
else
  build_format=()
fi
say "engine: $engine ($($engine --version))"

have_image() { $engine image inspect "$1" >/dev/null 2>&1; }
pull() { timeout 120 $engine pull "$1" >/dev/null 2>&1; }

# --- base images ----------------------------------------------------------------------------------
# The mirror apt uses here (deb822 URIs: lines first, then one-line sources), comments skipped.
debian_mirror=$( { grep -hsE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}';
                   grep -hsE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | awk '{print $2}'; } \
                 | grep -E '/debian/?$' | head -1 || true)
debian_mirror=${debian_mirror:-http://deb.debian.org/debian}

fresh_context() { rm -rf "${work:?}/$1" && mkdir -p "$work/$1" && echo "$work/$1"; }

build_stand_in() {  # NAME CONTEXT
  local log="$2.log"
  $engine build "${build_format[@]}" -t "$1" "$2" >"$log" 2>&1 || { tail -30 "$log"; fail "building the stand-in $1"; }
}

# Each base image: present, else pulled, else made here (and said so).
base_image() {  # NAME MAKER
  if have_image "$1"; then ok "$1 present"
  elif pull "docker.io/library/$1"; then ok "$1 pulled"
  else "$2"
  fi
}

make_debian() {
  say "debian:bookworm-slim cannot be pulled: making a LOCAL STAND-IN with debootstrap ($debian_mirror)"
  command -v debootstrap >/dev/null || as_root scripts/setup.sh container
  rootfs="$work/bookworm-rootfs"
  as_root rm -rf "$rootfs"
  as_root debootstrap --variant=minbase bookworm "$rootfs" "$debian_mirror" >"$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log"; fail "debootstrap"; }
  as_root tee "$rootfs/etc/apt/sources.list" >/dev/null <<SOURCES
deb $debian_mirror bookworm main
deb $debian_mirror bookworm-updates main
deb ${debian_mirror%/debian*}/debian-security bookworm-security main
SOURCES
  as_root rm -rf "$rootfs/var/cache/apt/archives/"*.deb "$rootfs/var/lib/apt/lists/"*
  as_root tar -C "$rootfs" -c . | $engine import - debian:bookworm-slim >/dev/null
  as_root rm -rf "$rootfs"
  ok "debian:bookworm-slim is a local stand-in (debootstrap minbase)"
}

make_swift() {
  local context
  [ -x "$toolchain/usr/bin/swift" ] || fail "swift:6.3-bookworm cannot be pulled and there is no toolchain at $toolchain"
  say "swift:6.3-bookworm cannot be pulled: making a LOCAL STAND-IN from $toolchain ($("$toolchain/usr/bin/swift" --version 2>/dev/null | head -1))"
  context=$(fresh_context swift-image)
  cp -al "$toolchain" "$context/swift" 2>/dev/null || cp -a "$toolchain" "$context/swift"
  # The package list of the official Swift Debian 12 image (libncurses6 among them: swift --version needs it).
  cat > "$context/Dockerfile" <<'SWIFT'
FROM debian:bookworm-slim
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      binutils gcc git libc6-dev libcurl4-openssl-dev libedit2 libgcc-12-dev libicu-dev \
      libncurses6 libncurses-dev libpython3-dev libsqlite3-0 libstdc++-12-dev libxml2-dev libz3-dev \
      pkg-config tzdata unzip uuid-dev zlib1g-dev ca-certificates \
 && rm -rf /var/lib/apt/lists/*
COPY swift/ /opt/swift/
ENV PATH=/opt/swift/usr/bin:$PATH
RUN swift --version
SWIFT
  build_stand_in swift:6.3-bookworm "$context"
  rm -rf "$context"
  ok "swift:6.3-bookworm is a local stand-in (this machine's toolchain on the Debian base)"
}

make_postgres() {
  local context
  say "postgres:15-bookworm cannot be pulled: making a LOCAL STAND-IN from Debian's postgresql-15"
  context=$(fresh_context postgres-image)
  cat > "$context/entrypoint.sh" <<'ENTRY'
#!/bin/bash
# initdb with POSTGRES_USER/PASSWORD/DB on first start, then postgres in the foreground (SIGTERM stops it).
set -euo pipefail
export PATH=/usr/lib/postgresql/15/bin:$PATH
data=/var/lib/postgresql/data
if [ ! -s "$data/PG_VERSION" ]; then
  printf '%s' "${POSTGRES_PASSWORD:-postgres}" > /tmp/pwfile
  initdb -D "$data" -U "${POSTGRES_USER:-postgres}" --pwfile=/tmp/pwfile --auth-host=scram-sha-256 --auth-local=trust >/dev/null
  rm /tmp/pwfile
  echo "host all all 0.0.0.0/0 scram-sha-256" >> "$data/pg_hba.conf"
  pg_ctl -D "$data" -o "-c listen_addresses=''" -w start >/dev/null
  if [ "${POSTGRES_DB:-postgres}" != postgres ]; then
    createdb -U "${POSTGRES_USER:-postgres}" -O "${POSTGRES_USER:-postgres}" "$POSTGRES_DB"
  fi
  pg_ctl -D "$data" -m fast -w stop >/dev/null
fi
# Like the official image: `postgres -c name=value …` as the command passes its settings on.
[ "${1:-}" = postgres ] && shift
exec postgres -D "$data" -c listen_addresses='*' "$@"
ENTRY
  cat > "$context/Dockerfile" <<'PG'
FROM debian:bookworm-slim
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-15 \
 && rm -rf /var/lib/apt/lists/* \
 && install -d -o postgres -g postgres /var/lib/postgresql/data /var/run/postgresql \
 && ln -s /usr/lib/postgresql/15/bin/pg_isready /usr/local/bin/pg_isready \
 && ln -s /usr/lib/postgresql/15/bin/psql /usr/local/bin/psql
COPY --chmod=755 entrypoint.sh /usr/local/bin/entrypoint.sh
USER postgres
STOPSIGNAL SIGINT
EXPOSE 5432
ENTRYPOINT ["/usr/local/bin/entrypoint.sh"]
PG
  build_stand_in postgres:15-bookworm "$context"
  ok "postgres:15-bookworm is a local stand-in (Debian postgresql-15)"
}

base_image debian:bookworm-slim make_debian
base_image swift:6.3-bookworm make_swift
base_image postgres:15-bookworm make_postgres

# --- the image ------------------------------------------------------------------------------------
say "building $image from a clean copy of this checkout (git archive HEAD)"
clean="$work/checkout"
rm -rf "$clean" && mkdir -p "$clean"
git -C "$root" archive HEAD | tar -x -C "$clean"
started=$(date +%s)
$engine build "${build_format[@]}" -f "$clean/docker/Dockerfile" -t "$image" -t passwright:latest "$clean" >"$work/image.log" 2>&1 \
  || { tail -40 "$work/image.log"; fail "docker/Dockerfile does not build"; }
ok "image built in $(( $(date +%s) - started )) s ($($engine image inspect "$image" --format '{{.Size}}') bytes)"
$engine image inspect "$image" | grep -q '"healthcheck"' || $engine image inspect "$image" | grep -qi '"Healthcheck"' \
  || fail "the image has no HEALTHCHECK (podman needs --format docker)"

# The runtime stage installs packages/runtime.list: its libraries must be exactly the packages that
# own the binary's NEEDED entries (libc6 aside, which every Debian has), and none may be missing.
$engine create --name "$name-files" "$image" >/dev/null 2>>"$work/engine.log"
$engine cp "$name-files:/usr/local/bin/passwright" "$work/passwright.bin" 2>>"$work/engine.log"
$engine rm -f "$name-files" >/dev/null 2>>"$work/engine.log"
sonames=$(readelf -d "$work/passwright.bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
rm -f "$work/passwright.bin"
owners=$($engine run --rm --entrypoint sh "$image" -c '
  ldd /usr/local/bin/passwright | grep "not found" && exit 3
  for soname in '"$sonames"'; do
    case "$soname" in libc.so.*|libm.so.*|ld-linux*) continue ;; esac  # libc6, in every Debian
    path=$(ldd /usr/local/bin/passwright | awk -v s="$soname" "\$1 == s {print \$3}")
    { dpkg -S "$path" 2>/dev/null || dpkg -S "$(readlink -f "$path")" 2>/dev/null || echo "unowned:$path"; } | cut -d: -f1
  done | sort -u' 2>>"$work/engine.log") || fail "the image lacks a library the binary links: $owners"
listed=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$clean/packages/runtime.list" | grep '^lib' | sort -u)
[ "$owners" = "$listed" ] || fail "packages/runtime.list's libraries are not the binary's: $(diff <(echo "$listed") <(echo "$owners") | grep '^[<>]' | sed 's/^</listed, not linked:/; s/^>/linked, not listed:/' | tr '\n' ';')"
ok "the image's libraries are exactly the binary's $(wc -w <<<"$sonames") NEEDED entries ($(wc -l <<<"$owners") packages of packages/runtime.list)"

cleanup() {
  $engine rm -f "$name" >/dev/null 2>&1 || true
  if [ -n "${compose:-}" ]; then (cd "$clean/docker" && "${compose[@]}" -p "$project" down -v >/dev/null 2>&1) || true; fi
}
trap cleanup EXIT

certs="$work/Certificates"
rm -rf "$certs" && mkdir -p "$certs"
# As a user would make them: `passwright certs dev` run as root, so root-owned 0700/0600 files.
$engine run --rm --user 0 -v "$certs:/out" "$image" certs dev --out /out >/dev/null 2>>"$work/engine.log"
token=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
link_key=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
port=18080

wait_for() {  # URL STATUS SECONDS
  local i
  for i in $(seq 1 "$3"); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$1" || true)" = "$2" ] && return 0
    sleep 1
  done
  return 1
}

run_server() {
  $engine rm -f "$name" >/dev/null 2>&1 || true
  # (podman without systemd logs that it cannot schedule periodic health checks: kept in engine.log)
  $engine run -d --name "$name" -p "127.0.0.1:$port:8080" \
    -v "$certs:/srv/passwright/Certificates:ro" -v "$clean/Templates:/srv/passwright/Templates:ro" \
    -e PASSWRIGHT_ADMIN_TOKEN="$token" -e PASSWRIGHT_LINK_KEY="$link_key" \
    -e PASSWRIGHT_PUBLIC_URL=https://passes.example.test "$image" >/dev/null 2>>"$work/engine.log"
  wait_for "http://127.0.0.1:$port/healthz" 200 30 || { $engine logs "$name" | tail -20; fail "/healthz does not answer 200"; }
}

say "1. the image on its own (SQLite in its data volume)"
run_server
ok "/healthz answers 200"
readyz=$(curl -s "http://127.0.0.1:$port/readyz")
status=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz")
[ "$status" = 503 ] || fail "/readyz is $status with identities the server cannot read: $readyz"
grep -q 'permission denied' <<<"$readyz" && grep -q 'runs as user passwright' <<<"$readyz" \
  || fail "/readyz does not say permission denied for user passwright: $readyz"
ok "root-owned 0600 identities: /readyz 503, \"permission denied: the server runs as user passwright (uid 999)\""

as_root chown -R 999:999 "$certs"
run_server
wait_for "http://127.0.0.1:$port/readyz" 200 20 || fail "/readyz is not 200 with readable identities: $(curl -s "http://127.0.0.1:$port/readyz")"
ok "identities readable by uid 999: /readyz 200"

if [ "$engine" = podman ]; then
  # No systemd here to run it periodically: run the image's HEALTHCHECK command once, as podman would.
  if $engine healthcheck run "$name" >/dev/null; then health=healthy; else health=unhealthy; fi
else
  for _ in $(seq 1 60); do
    health=$($engine inspect "$name" --format '{{.State.Health.Status}}')
    [ "$health" = healthy ] && break
    sleep 1
  done
fi
[ "$health" = healthy ] || fail "the image's health check reports '$health'"
ok "the image's own health check (passwright healthcheck) reports healthy"

uid=$($engine exec "$name" id -u)
[ "$uid" != 0 ] || fail "the server runs as root"
ok "runs as $($engine exec "$name" id -un) (uid $uid), not root"

issue() {  # SERIAL -> prints the HTTP status
  curl -s -o "$work/issued.json" -w '%{http_code}' -X POST "http://127.0.0.1:$port/api/v1/passes" \
    -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    --data "{\"template\": \"loyalty\", \"serialNumber\": \"$1\", \"data\": $(cat "$clean/Templates/samples/loyalty.json")}"
}
[ "$(issue CHECK-1)" = 201 ] || fail "issuing a pass: $(cat "$work/issued.json")"
curl -sf -o "$work/CHECK-1.pkpass" -H "Authorization: Bearer $token" \
  "http://127.0.0.1:$port/api/v1/passes/pass.dev.passwright.loyalty/CHECK-1/pkpass" || fail "downloading the pass"
cp "$work/CHECK-1.pkpass" "$certs/CHECK-1.pkpass"
$engine run --rm -v "$certs:/check:ro" "$image" verify /check/CHECK-1.pkpass --ca /check/dev-ca/root.pem >"$work/verify.txt" 2>>"$work/engine.log" \
  || { cat "$work/verify.txt"; fail "passwright verify refuses the pass"; }
as_root rm -f "$certs/CHECK-1.pkpass"
ok "a pass was issued, downloaded ($(wc -c <"$work/CHECK-1.pkpass") bytes) and passwright verify accepts it: $(tail -1 "$work/verify.txt")"

# Previews need Cairo, Pango, zint and the fonts inside the image: draw the pass and read it back.
curl -sf -o "$work/CHECK-1.png" -H "Authorization: Bearer $token" \
  "http://127.0.0.1:$port/api/v1/passes/pass.dev.passwright.loyalty/CHECK-1/preview?scale=2" || fail "GET …/CHECK-1/preview does not answer a picture"
size=$(python3 -c 'import sys; from PIL import Image; i = Image.open(sys.argv[1]); i.load(); print(f"{i.format} {i.width}x{i.height}")' "$work/CHECK-1.png") \
  || fail "the preview is not a PNG that decodes"
[ "$size" = "PNG 750x936" ] || fail "the preview is $size, not a store card's 375x468 points at @2x (PNG 750x936)"
text=$(tesseract "$work/CHECK-1.png" - 2>/dev/null | tr '\n' ' ')
grep -q 'Ada Okafor' <<<"$text" || fail "the preview's text does not read back (fonts missing?): OCR read '$text'"
ok "GET …/CHECK-1/preview: $size, and OCR reads the holder's name back (Pango and the fonts work inside)"

signin=$(curl -s -D "$work/signin.headers" -o "$work/signin.html" -w '%{http_code} %{content_type}' "http://127.0.0.1:$port/console/sign-in")
[ "${signin%% *}" = 200 ] && grep -q '<form' "$work/signin.html" || fail "the console sign-in page: $signin"
grep -qi '^content-security-policy:' "$work/signin.headers" || fail "the console sign-in page has no Content-Security-Policy"
ok "the console sign-in page loads ($signin, with a Content-Security-Policy)"

# The release build's write pipeline (a page's passes planned on every core, the next page planned
# while one is written): a new version of the template, pushed with the image's own CLI, reaches all
# 24 passes, and the last one shows it. Debug builds run it in the unit stage; this is the build users get.
for i in $(seq 2 24); do [ "$(issue "CHECK-$i")" = 201 ] || fail "issuing CHECK-$i: $(cat "$work/issued.json")"; done
rm -rf "$work/roll" && mkdir -p "$work/roll" && cp -r "$clean/Templates/loyalty" "$work/roll/loyalty" && chmod -R a+rX "$work/roll"
sed -i 's/"label": "Points"/"label": "Stars"/' "$work/roll/loyalty/pass.json"
$engine run --rm --network host -v "$work/roll:/roll:ro" -e PASSWRIGHT_SERVER="http://127.0.0.1:$port" -e PASSWRIGHT_ADMIN_TOKEN="$token" \
  "$image" templates push /roll/loyalty >"$work/push.txt" 2>&1 || fail "passwright templates push (in the image): $(tail -3 "$work/push.txt")"
rollout=""
for _ in $(seq 60); do
  rollout=$(curl -s -H "Authorization: Bearer $token" "http://127.0.0.1:$port/api/v1/templates/loyalty" \
    | python3 -c 'import json, sys; t = json.load(sys.stdin); print(t["currentVersion"], t["passesBehind"])' || true)
  [ "$rollout" = "2 0" ] && break
  sleep 0.5
done
[ "$rollout" = "2 0" ] || fail "the roll-out of version 2 did not finish (version and passes behind: '$rollout'; server log: $($engine logs "$name" 2>&1 | tail -5))"
curl -sf -o "$work/CHECK-24.pkpass" -H "Authorization: Bearer $token" \
  "http://127.0.0.1:$port/api/v1/passes/pass.dev.passwright.loyalty/CHECK-24/pkpass" || fail "downloading CHECK-24 after the roll-out"
python3 -c 'import sys, zipfile; sys.exit(0 if b"\"Stars\"" in zipfile.ZipFile(sys.argv[1]).read("pass.json") else 1)' "$work/CHECK-24.pkpass" \
  || fail "CHECK-24 does not show version 2's label after the roll-out"
ok "version 2 of the template rolled out to all 24 passes in the release build, and CHECK-24 shows it"

started=$(date +%s%N)
$engine stop -t 10 "$name" >/dev/null 2>>"$work/engine.log"
elapsed=$(( ($(date +%s%N) - started) / 1000000 ))
code=$($engine inspect "$name" --format '{{.State.ExitCode}}')
[ "$code" = 0 ] || fail "after SIGTERM the exit status is $code"
[ "$elapsed" -lt 10000 ] || fail "SIGTERM took $elapsed ms"
ok "SIGTERM stops it with exit 0 in $elapsed ms"
$engine rm -f "$name" >/dev/null 2>>"$work/engine.log"

# --- compose --------------------------------------------------------------------------------------
say "2. compose with PostgreSQL"
if [ "$engine" = docker ] && docker compose version >/dev/null 2>&1; then
  compose=(docker compose)
else
  if ! command -v podman-compose >/dev/null; then
    if [ ! -x "$work/venv/bin/podman-compose" ]; then
      say "installing podman-compose from PyPI into $work/venv"
      python3 -m venv "$work/venv" && "$work/venv/bin/pip" install -q podman-compose
    fi
    compose=("$work/venv/bin/podman-compose")
  else
    compose=(podman-compose)
  fi
fi
export PASSWRIGHT_ADMIN_TOKEN="$token" PASSWRIGHT_LINK_KEY="$link_key" PASSWRIGHT_HOST_PORT=$port \
  PASSWRIGHT_CERTIFICATES="$certs" PASSWRIGHT_TEMPLATES_DIR="$clean/Templates" PASSWRIGHT_IMAGE=passwright:latest
(cd "$clean/docker" && "${compose[@]}" -p "$project" down -v >/dev/null 2>&1 || true)
(cd "$clean/docker" && "${compose[@]}" -p "$project" up -d >"$work/compose.log" 2>&1) || { tail -30 "$work/compose.log"; fail "compose up"; }
server=$($engine ps -a --format '{{.Names}}' | grep -E "^${project}[_-]passwright" | head -1 || true)
database=$($engine ps -a --format '{{.Names}}' | grep -E "^${project}[_-]postgres" | head -1 || true)
[ -n "$server" ] && [ -n "$database" ] || fail "compose did not start both services: $($engine ps -a)"
wait_for "http://127.0.0.1:$port/readyz" 200 90 || { $engine logs "$server" 2>&1 | tail -20; fail "/readyz is not 200 under compose"; }
running=$($engine inspect "$server" --format '{{.State.Status}} restarts={{.RestartCount}}')
waited=$($engine logs "$server" 2>&1 | grep -c 'database does not answer yet; retrying' || true)
ok "the server is up after PostgreSQL ($running; it waited $waited time(s) for the database, logged)"
[ "$(issue COMPOSE-1)" = 201 ] || fail "issuing under compose: $(cat "$work/issued.json")"
row=$($engine exec "$database" psql -U passwright -d passwright -tAc \
  "SELECT pass_type_identifier || ' ' || serial_number FROM passes WHERE serial_number = 'COMPOSE-1'")
[ "$row" = "pass.dev.passwright.loyalty COMPOSE-1" ] || fail "the pass is not in PostgreSQL: '$row'"
ok "a pass was issued and its row is in PostgreSQL: $row"
cost=$($engine exec "$database" psql -U passwright -d passwright -tAc "SHOW random_page_cost")
[ "$cost" = 1.1 ] || fail "compose's PostgreSQL runs with random_page_cost $cost, not the 1.1 compose.yaml sets"
ok "compose's PostgreSQL prices an index search as compose.yaml sets it (random_page_cost $cost)"
(cd "$clean/docker" && "${compose[@]}" -p "$project" down -v >/dev/null 2>&1) || true
compose=""
say "container check passed ($engine)"
