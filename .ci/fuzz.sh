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

# Go 1.26's fuzz coordinator can end a duration-bounded run with a bare
# "context deadline exceeded" at the deadline (go.dev/issue/75804, fixed in
# Go 1.27). A finding always writes its input under testdata/fuzz/<target>,
# so a failure that wrote none is that race: it is retried once, and
# reported, not counted.
failed=0
count() { { ls "$1/testdata/fuzz/$2" 2>/dev/null || true; } | wc -l; }
while read -r pkg target; do
  [ -n "$target" ] || continue
  for attempt in 1 2; do
    echo "-- $target ($pkg, $fuzztime)"
    before=$(count "$pkg" "$target")
    if go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg"; then
      break
    fi
    if [ "$(count "$pkg" "$target")" != "$before" ] || [ "$attempt" = 2 ]; then
      failed=1
      break
    fi
    echo "-- $target: failed without writing an input (go.dev/issue/75804); once more"
  done
done <<< "$targets"
exit $failed
