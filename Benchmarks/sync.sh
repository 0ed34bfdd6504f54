#!/bin/bash
# The sync benchmark on a throw-away PostgreSQL 15 cluster (127.0.0.1; removed at the end): a
# sync server (Hummingbird) whose store server code fills with SEED notes, a new device that
# syncs them all (time, peak memory), and two devices left running: time from a save on one to
# the note in the other's store, and bytes per change.
#   swift build -c release --package-path Benchmarks --product sync-bench
#   Benchmarks/sync.sh               # SEED=100000 SAVES=200 by default
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bench="$here/.build/release/sync-bench"
seed=${SEED:-100000}
saves=${SAVES:-200}

bin=/usr/lib/postgresql/15/bin
dir="$(mktemp -d /tmp/osd-sync-pg.XXXXXX)"
chown postgres "$dir"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port=$(free_port)
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
as_postgres "$bin/initdb" -D "$dir/data" -U postgres -A trust > "$dir/initdb.log"
as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start > /dev/null
server_pid=
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2> /dev/null || true
    as_postgres "$bin/pg_ctl" -D "$dir/data" -m immediate stop > /dev/null
    rm -rf "$dir"
}
trap cleanup EXIT

echo "Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo); PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1 (fsync off); devices on SQLite; HTTP over loopback"
"$bench" --role serve --database-url "postgres://postgres@127.0.0.1:$port/postgres" --seed "$seed" > "$dir/serve.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 3000); do
    grep -q '^listening ' "$dir/serve.log" && break
    kill -0 "$server_pid" 2> /dev/null || { cat "$dir/serve.log"; exit 1; }
    sleep 0.2
done
grep -v '^listening ' "$dir/serve.log"
server="http://127.0.0.1:$(sed -n 's/^listening //p' "$dir/serve.log")"
"$bench" --role initial --server "$server"
"$bench" --role measure --server "$server" --saves "$saves"
