#!/bin/bash
# Runs the benchmark runner with a throw-away PostgreSQL 15 cluster on 127.0.0.1 (started as the
# postgres user, since initdb refuses root; removed at the end), its URL in OSD_POSTGRES_URL:
#   Benchmarks/postgres.sh run --cases P1,P2,P3,P4
# The runner must be built: swift build -c release --package-path Benchmarks --product osd-bench
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin=/usr/lib/postgresql/15/bin
dir="$(mktemp -d /tmp/osd-bench-pg.XXXXXX)"
chown postgres "$dir"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
as_postgres "$bin/initdb" -D "$dir/data" -U postgres -A trust > "$dir/initdb.log"
as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start > /dev/null
trap 'as_postgres "$bin/pg_ctl" -D "$dir/data" -m immediate stop > /dev/null; rm -rf "$dir"' EXIT
OSD_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/postgres" "$here/.build/release/osd-bench" "$@"
