#!/bin/bash
# Runs the benchmark runner with a throw-away PostgreSQL 15 cluster on 127.0.0.1 (started as the
# postgres user, since initdb refuses root; removed at the end), its URL in OSD_POSTGRES_URL:
#   Benchmarks/postgres.sh run --cases P1,P2,P3,P4
# The runner must be built: swift build -c release --package-path Benchmarks --product osd-bench
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/cluster.sh"
OSD_POSTGRES_URL="$url" "$here/.build/release/osd-bench" "$@"
