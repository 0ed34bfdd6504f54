#!/usr/bin/env bash
# Fuzzes what OpenSwiftData reads from a store file it did not write (the recorded schema, and a
# store opened with it) with libFuzzer, which ships with the Swift toolchain on Linux.
#
#   Scripts/fuzz.sh [seconds]      # 300 unless given
#
# Builds Tests/Fuzz with OSD_FUZZ=1 into .build-fuzz (the library instrumented for libFuzzer),
# then runs it from the seeds in Tests/FuzzCorpus/seeds and the regressions in
# Tests/FuzzCorpus/regressions, keeping what it learns in .build-fuzz/corpus. An input that
# crashes is written to .build-fuzz/crash-*: add it to Tests/FuzzCorpus/regressions once fixed;
# the test suite replays every file there.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-300}"
OSD_FUZZ=1 swift build --product MetadataFuzzer --build-path .build-fuzz
mkdir -p .build-fuzz/corpus
.build-fuzz/debug/MetadataFuzzer -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 \
    -dict=Tests/FuzzCorpus/schema.dict -artifact_prefix=.build-fuzz/ .build-fuzz/corpus Tests/FuzzCorpus/seeds Tests/FuzzCorpus/regressions
