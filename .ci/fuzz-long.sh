#!/usr/bin/env bash
# Runs every fuzz target for long: FUZZX times about 10 s each (default 60,
# about 10 minutes per target, three hours in all). Not part of CI, which
# fuzzes briefly (.ci/fuzz.sh); run it after changing a parser, and commit
# any input it saves under the package's testdata/fuzz with the fix.
set -euo pipefail
cd "$(dirname "$0")/.."
x=${FUZZX:-60}
case $x in
  '' | *[!0-9]* | 0) echo "FUZZX must be a positive whole number, not \"$x\"" >&2; exit 2 ;;
esac
FUZZ_TENTHS=$((x * 10)) exec bash .ci/fuzz.sh
