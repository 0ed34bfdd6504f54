#!/bin/bash
# The sync benchmark for many users, on a throw-away PostgreSQL 15 cluster (127.0.0.1; removed at
# the end): a sync server with a zone per user (two schemas each), USERS users' devices filling
# their zones, then CONCURRENT of them editing and syncing at once (changes per second, push and
# pull latencies), while the PostgreSQL connections in use are counted every 0.2 s.
#   swift build -c release --package-path Benchmarks --product sync-bench
#   Benchmarks/sync-users.sh         # USERS=1000 CONCURRENT=100 ROUNDS=10 OPEN_ZONES=64 by default
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bench="$here/.build/release/sync-bench"
users=${USERS:-1000}
concurrent=${CONCURRENT:-100}
rounds=${ROUNDS:-10}
open_zones=${OPEN_ZONES:-64}

CLUSTER_OPTIONS="-c max_connections=400 ${CLUSTER_OPTIONS:-}"
source "$here/cluster.sh"
server_pid=
counter_pid=
cluster_cleanup_extra() {
    [ -n "$server_pid" ] && kill "$server_pid" 2> /dev/null || true
    [ -n "$counter_pid" ] && kill "$counter_pid" 2> /dev/null || true
}
connections() { "$bin/psql" -At -h 127.0.0.1 -p "$cluster_port" -U postgres -c "select count(*) from pg_stat_activity where backend_type = 'client backend'" postgres; }

echo "Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo); PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1 (fsync off); server and devices (SQLite) on this machine; HTTP over loopback; at most $open_zones zones open"
"$bench" --role serve-users --database-url "$url" --open-zones "$open_zones" > "$dir/serve.log" 2>&1 &
server_pid=$!
wait_for_server "$server_pid" "$dir/serve.log"
( while true; do connections >> "$dir/connections.log"; sleep 0.2; done ) &
counter_pid=$!
"$bench" --role users --server "$server" --users "$users" --concurrent "$concurrent" --rounds "$rounds" | tee "$dir/users.log" | grep -v '^load-'
kill "$counter_pid"; counter_pid=
echo "PostgreSQL connections in use (the counter's own included): at most $(sort -n "$dir/connections.log" | tail -1) over the run, $(connections) at the end"
echo "Database: $("$bin/psql" -At -h 127.0.0.1 -p "$cluster_port" -U postgres -c "select count(*) from pg_namespace where nspname like 'u\_%'" postgres) schemas, $("$bin/psql" -At -h 127.0.0.1 -p "$cluster_port" -U postgres -c "select pg_size_pretty(pg_database_size('postgres'))" postgres)"
