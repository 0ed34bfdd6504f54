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

source "$here/cluster.sh"
server_pid=
cluster_cleanup_extra() { [ -n "$server_pid" ] && kill "$server_pid" 2> /dev/null || true; }

echo "Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo); PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1 (fsync off); devices on SQLite; HTTP over loopback"
"$bench" --role serve --database-url "$url" --seed "$seed" > "$dir/serve.log" 2>&1 &
server_pid=$!
wait_for_server "$server_pid" "$dir/serve.log"
grep -v '^listening ' "$dir/serve.log"
"$bench" --role initial --server "$server"
"$bench" --role measure --server "$server" --saves "$saves"
