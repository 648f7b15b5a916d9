#!/usr/bin/env bash
# Runs every fuzz target briefly, for a fixed number of executions (about a
# second each on a 2-core CI machine), one after the other: a parser of
# outside input that panics, hangs or breaks its stated properties on some
# input fails CI with that input saved under the package's testdata/fuzz.
# Each target's seed corpus already runs in plain `go test`; this adds new
# inputs. Long runs: .ci/fuzz-long.sh.
#
# The budget is a count, not a duration: Go 1.26's fuzz coordinator can fail
# a duration-bounded (or interrupted) run with a bare "context deadline
# exceeded" although nothing was found (go.dev/issue/75804, fixed in Go 1.27),
# and on a loaded machine it did so twice in a row for one target. A count
# bound cancels no context, so that race cannot happen.
#
# FUZZ_TENTHS scales the runs in tenths of the counts below: 1 (the
# default) is about a second per target, 100 about 100 s.
set -euo pipefail
cd "$(dirname "$0")/.."

tenths=${FUZZ_TENTHS:-1}
case $tenths in
  '' | *[!0-9]* | 0) echo "FUZZ_TENTHS must be a positive whole number, not \"$tenths\"" >&2; exit 2 ;;
esac

# Executions per target in about 10 s, sized from CI's rates: targets that
# start the binary's config machinery or write files run far fewer per
# second than pure parsers.
executions() {
  case $1 in
    FuzzConfigFile) echo 10000 ;;
    FuzzJSONFormats) echo 6000 ;;
    FuzzLedgerSlot | FuzzSettingParse) echo 30000 ;;
    FuzzAPIPath | FuzzYAML) echo 40000 ;;
    FuzzAPIFields) echo 50000 ;;
    FuzzDecodeEnvelope) echo 25000 ;;
    FuzzDecodeError | FuzzDecodeState) echo 100000 ;;
    FuzzCSVReader | FuzzJSONLinesReader | FuzzParseRetryAfter | FuzzRedactURLsIn | FuzzIDShapes | FuzzDecode) echo 150000 ;;
    FuzzODBCConnectionString | FuzzODBCParamsJSON) echo 500000 ;;
    *) echo 50000 ;;
  esac
}

# package  target: every func Fuzz* in the repository, so a new one is not forgotten.
targets=$(grep -rl --include='*_test.go' '^func Fuzz' . | sort | while read -r f; do
  pkg=./$(dirname "${f#./}")
  grep -o '^func Fuzz[A-Za-z0-9_]*' "$f" | sed "s|^func |$pkg |"
done)

failed=0
while read -r pkg target; do
  [ -n "$target" ] || continue
  n=$(( ($(executions "$target") * tenths + 9) / 10 ))
  echo "-- $target ($pkg, ${n} executions)"
  start=$SECONDS
  if ! go test -run '^$' -fuzz "^${target}\$" -fuzztime "${n}x" -timeout "$((10 + tenths / 6))m" "$pkg"; then
    failed=1
  fi
  echo "-- $target: $((SECONDS - start)) s"
done <<< "$targets"
exit $failed
