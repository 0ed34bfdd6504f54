#!/bin/bash
# TechEmpower's database tests (db, queries=20, updates=20, fortunes) with wrk, three servers in
# one run on a throw-away PostgreSQL 15 cluster (127.0.0.1; removed at the end): OpenSwiftData
# on Hummingbird, postgres-nio on Hummingbird, Fluent on Vapor. Prints a Markdown table of
# requests per second and p99 latency, and the machine, connections and pool sizes.
#   swift build -c release --package-path Benchmarks --product techempower
#   Benchmarks/techempower.sh                # CONNECTIONS=256 DURATION=15 POOL=32 by default
#   DRIVERS="ours postgres-nio" TESTS="db fortunes" Benchmarks/techempower.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
server="$here/.build/release/techempower"
connections=${CONNECTIONS:-256}
duration=${DURATION:-15}
pool=${POOL:-32}
drivers=${DRIVERS:-"ours postgres-nio fluent"}
tests=${TESTS:-"db queries updates fortunes"}
command -v wrk > /dev/null || { apt-get update -qq && apt-get install -y -qq wrk > /dev/null; }

CLUSTER_OPTIONS="-c max_connections=200" source "$here/cluster.sh"
server_pid=
cluster_cleanup_extra() { [ -n "$server_pid" ] && kill "$server_pid" 2> /dev/null || true; }

"$server" --driver ours --database-url "$url" --seed
"$server" --driver postgres-nio --database-url "$url" --seed

path_of() {
    case "$1" in
        queries) echo "/queries?queries=20" ;;
        updates) echo "/updates?queries=20" ;;
        *) echo "/$1" ;;
    esac
}

echo "Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1 (fsync off), wrk -t2 -c$connections -d${duration}s after a 5 s warm-up each; server pools: $pool connections (Fluent: $((pool / $(nproc))) per event loop, $(nproc) loops)"
echo
echo "| test | driver | requests/s | p99 latency | ratio to postgres-nio |"
echo "|---|---|---:|---:|---:|"
results="$dir/results"
: > "$results"
for driver in $drivers; do
    http=$(free_port)
    "$server" --driver "$driver" --database-url "$url" --port "$http" --pool "$pool" > "$dir/$driver.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 1 100); do
        (exec 3<> "/dev/tcp/127.0.0.1/$http") 2> /dev/null && break
        sleep 0.1
    done
    for test in $tests; do
        target="http://127.0.0.1:$http$(path_of "$test")"
        wrk -t2 -c"$connections" -d5s "$target" > /dev/null
        out=$(wrk -t2 -c"$connections" -d"${duration}s" --latency "$target")
        requests=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
        p99=$(echo "$out" | awk '$1 == "99%" {print $2}')
        errors=$(echo "$out" | awk '/Non-2xx|Socket errors/ {print}' | tr '\n' ' ')
        echo "$test $driver $requests $p99 $errors" >> "$results"
    done
    kill -TERM "$server_pid"
    wait "$server_pid" 2> /dev/null || true
    server_pid=
done
for test in $tests; do
    base=$(awk -v t="$test" '$1 == t && $2 == "postgres-nio" {print $3}' "$results")
    awk -v t="$test" -v base="$base" '$1 == t {
        ratio = (base > 0) ? sprintf("%.2f", $3 / base) : "";
        extra = ""; for (i = 5; i <= NF; i++) extra = extra " " $i;
        printf "| %s | %s | %.0f | %s | %s%s |\n", $1, $2, $3, $4, ratio, (extra != "" ? " (" extra " )" : "")
    }' "$results"
done
