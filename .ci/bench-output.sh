#!/usr/bin/env bash
# Prints, for each output format, orgctl's peak RSS as a multiple of a
# 100,000-user answer and its time as a multiple of curl fetching the same
# answer, measured side by side in one run (see BenchmarkLargeOutput).
# ORGCTL_BENCH_USERS and ORGCTL_BENCH_RUNS change the size and the runs.
set -euo pipefail
cd "$(dirname "$0")/.."
go test -run '^$' -bench '^BenchmarkLargeOutput$' -benchtime 1x -count 1 . | sed -n '/^answer:/,/^goos:/p' | sed '$d'
