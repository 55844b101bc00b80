#!/usr/bin/env bash
# A throwaway PostgreSQL for tests, run as root on Debian (apt-get install postgresql).
#
#   scripts/postgres.sh start DIR [PORT]   # prints postgres://postgres@127.0.0.1:PORT/passwright_test
#   scripts/postgres.sh stop DIR
#   scripts/postgres.sh resume DIR PORT    # starts a stopped one again, on its data and port
#
# Without PORT it picks a free one (and tries another if something takes it first), so a server
# someone left running, or a second checkout's tests, never stops this one from starting.
# The server runs as the `postgres` user (initdb refuses root) with trust authentication, listens on
# 127.0.0.1 only and keeps its socket in DIR, so it never touches the system cluster. It allows 800
# connections: tests run many services at once, each with a pool, LISTEN connections and one per HTTP thread.
# POSTGRES_OPTIONS adds server settings (e.g. "-c shared_preload_libraries=pg_stat_statements").
set -euo pipefail

usage() {
    echo "usage: $0 start DIR [PORT] | stop DIR | resume DIR PORT" >&2
    exit 64
}

# Newest installed server version under /usr/lib/postgresql (Debian's layout).
bindir() {
    local version
    version=$(ls /usr/lib/postgresql 2>/dev/null | sort -V | tail -n 1)
    if [[ -z "$version" || ! -x "/usr/lib/postgresql/$version/bin/pg_ctl" ]]; then
        echo "error: no PostgreSQL server in /usr/lib/postgresql; run: apt-get install -y --no-install-recommends postgresql" >&2
        exit 1
    fi
    echo "/usr/lib/postgresql/$version/bin"
}

# Runs a command as the postgres user; the arguments are passed without a shell.
as_postgres() {
    if [[ $(id -u) -eq 0 ]]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

# Starts the server of DIR on PORT; fails (its log on stderr) if it does not come up.
serve() {
    as_postgres "$bin/pg_ctl" -D "$1/data" -l "$1/server.log" -w \
        -o "-p $2 -k $1 -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=800 ${POSTGRES_OPTIONS:-}" start >/dev/null
}

command=${1:-}
case "$command" in
start)
    [[ $# -eq 2 || $# -eq 3 ]] || usage
    dir=$(realpath -m "$2")
    requested=${3:-}
    bin=$(bindir)
    mkdir -p "$dir"
    if [[ $(id -u) -eq 0 ]]; then
        chown postgres:postgres "$dir"
    fi
    chmod 0700 "$dir"
    as_postgres "$bin/initdb" -D "$dir/data" -A trust -U postgres --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; exit 1; }
    attempts=$([[ -n "$requested" ]] && echo 1 || echo 20)
    for ((attempt = 1; attempt <= attempts; attempt++)); do
        port=${requested:-$((20000 + RANDOM % 30000))}
        rm -f "$dir/server.log"
        if serve "$dir" "$port"; then
            break
        fi
        if [[ -z "$requested" ]] && grep -q "Address already in use" "$dir/server.log" && ((attempt < attempts)); then
            continue
        fi
        cat "$dir/server.log" >&2
        [[ -n "$requested" ]] && grep -q "Address already in use" "$dir/server.log" &&
            echo "error: port $requested on 127.0.0.1 is taken; stop what holds it (ss -ltnp 'sport = :$requested') or leave PORT out to pick a free one" >&2
        exit 1
    done
    as_postgres "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres passwright_test
    echo "postgres://postgres@127.0.0.1:$port/passwright_test"
    ;;
stop)
    [[ $# -eq 2 ]] || usage
    dir=$(realpath -m "$2")
    bin=$(bindir)
    as_postgres "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
resume)
    # An outage drill (scripts/outage.sh): the same data, so what was committed before is still there.
    [[ $# -eq 3 ]] || usage
    dir=$(realpath -m "$2")
    bin=$(bindir)
    serve "$dir" "$3" || { cat "$dir/server.log" >&2; exit 1; }
    ;;
*)
    usage
    ;;
esac
