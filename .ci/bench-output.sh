#!/usr/bin/env bash
# Prints, for each output format, orgctl's peak RSS as a multiple of a
# 100,000-user answer and its time as a multiple of curl fetching the same
# answer, measured side by side in one run (see BenchmarkLargeOutput): once
# with the answer served as fast as loopback goes (what orgctl costs beside
# the network), once at ORGCTL_BENCH_RATE MB/s (default 20, a fast link to
# a remote API: what a user waits for). ORGCTL_BENCH_USERS and
# ORGCTL_BENCH_RUNS change the size and the runs.
set -euo pipefail
cd "$(dirname "$0")/.."
go test -run '^$' -bench '^BenchmarkLargeOutput$' -benchtime 1x -count 1 . | sed -n '/^answer:/,/^goos:/p' | sed '$d'
