#!/usr/bin/env bash
# Runs every fuzz target for a short while (FUZZTIME, 10s by default), one
# after the other: a parser of outside input that panics, hangs or breaks
# its stated properties on some input fails CI with that input saved under
# the package's testdata/fuzz. Longer runs: FUZZTIME=10m .ci/fuzz.sh
set -euo pipefail
cd "$(dirname "$0")/.."

fuzztime=${FUZZTIME:-10s}
# package  target: every func Fuzz* in the repository, so a new one is not forgotten.
targets=$(grep -rl --include='*_test.go' '^func Fuzz' . | sort | while read -r f; do
  pkg=./$(dirname "${f#./}")
  grep -o '^func Fuzz[A-Za-z0-9_]*' "$f" | sed "s|^func |$pkg |"
done)

failed=0
while read -r pkg target; do
  [ -n "$target" ] || continue
  echo "-- $target ($pkg, $fuzztime)"
  if ! go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg"; then
    failed=1
  fi
done <<< "$targets"
exit $failed
