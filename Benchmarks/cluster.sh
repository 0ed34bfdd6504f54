# Sourced by the benchmark scripts: starts a throw-away PostgreSQL 15 cluster on 127.0.0.1 (as
# the postgres user, since initdb refuses root; fsync off), sets `url` to it and `dir` to a
# scratch folder, and removes both when the script exits (after `cluster_cleanup_extra`, when
# the script defines it). Extra server settings may come in CLUSTER_OPTIONS.
bin=/usr/lib/postgresql/15/bin
dir="$(mktemp -d /tmp/osd-bench-pg.XXXXXX)"
chown postgres "$dir"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
cluster_port=$(free_port)
as_postgres "$bin/initdb" -D "$dir/data" -U postgres -A trust > "$dir/initdb.log"
as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $cluster_port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off ${CLUSTER_OPTIONS:-}" start > /dev/null
cluster_cleanup() {
    if declare -F cluster_cleanup_extra > /dev/null; then cluster_cleanup_extra; fi
    as_postgres "$bin/pg_ctl" -D "$dir/data" -m immediate stop > /dev/null
    rm -rf "$dir"
}
trap cluster_cleanup EXIT
url="postgres://postgres@127.0.0.1:$cluster_port/postgres"

# Waits until the server process $1 writes "listening <port>" to its log $2 (or dies: then
# prints the log and fails); sets `server` to its address.
wait_for_server() {
    for _ in $(seq 1 3000); do
        grep -q '^listening ' "$2" && break
        kill -0 "$1" 2> /dev/null || { cat "$2"; exit 1; }
        sleep 0.2
    done
    server="http://127.0.0.1:$(sed -n 's/^listening //p' "$2")"
}
