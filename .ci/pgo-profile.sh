#!/usr/bin/env bash
# Writes default.pgo, the CPU profile that go build uses for
# profile-guided optimisation of the binary: the output benchmarks, where
# orgctl spends its CPU on a large answer (reading the JSON, writing each
# format). Run it again when that code changes much; an older profile
# still builds, it only optimises less.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -run '^$' -bench '^Benchmark(Render(YAML|TSV)|PrintJSONIndented|PrintJQField)$' -benchtime 2s -count 1 \
	-cpuprofile "$tmp/cpu.prof" -o "$tmp/output.test" ./output/ >/dev/null
mv "$tmp/cpu.prof" default.pgo
echo "wrote default.pgo ($(wc -c < default.pgo) bytes)"
