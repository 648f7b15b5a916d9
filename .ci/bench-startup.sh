#!/usr/bin/env bash
# Prints orgctl's start-up time for `--version`, `users list --help`,
# `--help` and a completion request as a multiple of the floor: a cobra+viper program with 150 commands kept in
# ../shared/bench/floor, built in a temporary directory (never in the repo).
# Beside them, two references: the floor with an HTTPS client linked in,
# and the floor with every library orgctl links imported for its init
# alone. With valgrind installed, the same ratios in instructions
# executed, a figure a busy machine does not blur, and what each library
# orgctl requires adds to the floor alone (instructions and page faults).
# Then the packages whose init costs orgctl most. Uses hyperfine when installed (apt-get install -y
# hyperfine), otherwise the Go benchmark BenchmarkStartup.
set -euo pipefail
cd "$(dirname "$0")/.."
floor_src=../shared/bench/floor
if [ ! -f "$floor_src/main.go" ]; then
  echo "skipped: $floor_src is absent, so there is no floor to compare with"
  exit 0
fi
if ! command -v hyperfine >/dev/null 2>&1; then
  go test -run '^$' -bench '^BenchmarkStartup$' -benchtime 1x -count 1 . | grep 'orgctl / floor'
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/orgctl" .
cp -r "$floor_src" "$tmp/floor-src"
(cd "$tmp/floor-src" && go build -o "$tmp/floor" .)
# A second reference: the floor with an HTTPS client linked in (unused
# unless FLOOR_FETCH is set), which any API client pays for at start-up.
cat > "$tmp/floor-src/https.go" <<'EOF'
package main

import (
	"crypto/tls"
	"net/http"
	"os"
)

func init() {
	if u := os.Getenv("FLOOR_FETCH"); u != "" {
		c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{}}}
		c.Get(u)
	}
}
EOF
(cd "$tmp/floor-src" && go build -o "$tmp/floor-https" .)
# A third: the floor with every third-party package orgctl links imported
# for its init alone, at orgctl's versions. orgctl over this reference is
# what orgctl's own code adds; this over the floor is what its
# dependencies' init costs before orgctl runs a line.
mod=$(go list -m)
go list -deps -f '{{if and .Module (ne .Module.Path "'"$mod"'")}}{{.ImportPath}} {{.Module.Path}}@{{.Module.Version}}{{end}}' . |
  grep -v '/internal\(/\| \)' >"$tmp/deps"
floor_with() { # binary name, then a grep pattern for the deps' lines to import
  local src="$tmp/$1-src"
  cp -r "$tmp/floor-src" "$src"
  rm "$src/https.go"
  grep -e "$2" "$tmp/deps" >"$src/deps.txt"
  {
    echo "package main"
    echo "import ("
    awk '{ print "\t_ \"" $1 "\"" }' "$src/deps.txt"
    echo ")"
  } >"$src/deps.go"
  (
    cd "$src"
    awk '{ print $2 }' deps.txt | sort -u | sed 's/^/-require=/' | xargs go mod edit
    cat "$OLDPWD/go.sum" >>go.sum
    GOFLAGS=-mod=mod go build -o "$tmp/$1" .
  )
}
floor_with floor-deps .
# A fourth: orgctl built against a copy of tablewriter (in the temporary
# directory, never the repo) whose package init makes no width cache.
# tablewriter v1 makes an 8,192-entry cache at init, whatever the command,
# and orgctl turns it off before its first table; this shows what that
# one line of the library costs every orgctl start.
tw=$(go list -m -f '{{.Dir}}' github.com/olekukonko/tablewriter)
cp -r "$tw" "$tmp/tw" && chmod -R u+w "$tmp/tw"
sed -i 's|^\twidthCache = twcache.NewLRU\[cacheKey, int\](cacheCapacity)$|\t_ = twcache.NewLRU[cacheKey, int] // no cache at init|' "$tmp/tw/pkg/twwidth/width.go"
if grep -q 'no cache at init' "$tmp/tw/pkg/twwidth/width.go"; then
  mkdir "$tmp/orgctl-src"
  tar --exclude=./.git -cf - . | tar -xf - -C "$tmp/orgctl-src"
  (cd "$tmp/orgctl-src" && go mod edit -replace "github.com/olekukonko/tablewriter=$tmp/tw" &&
    GOFLAGS=-mod=mod go build -o "$tmp/orgctl-nocache" .)
fi
export HOME="$tmp" XDG_CONFIG_HOME="$tmp/config" XDG_STATE_HOME="$tmp/state" XDG_CACHE_HOME="$tmp/cache"
ratio() { # name, orgctl command, floor command
  # Rounds of a few runs each, orgctl's then the floor's, so that a slow
  # spell of the machine weighs on both: each round gives a ratio of
  # medians, and the figure is the median of those ratios. hyperfine's CSV
  # columns: command,mean,stddev,median,user,system,min,max.
  local rounds=${ROUNDS:-5} per
  per=$(( (${RUNS:-40} + rounds - 1) / rounds ))
  for _ in $(seq "$rounds"); do
    hyperfine -N --style none --warmup 3 --runs "$per" --export-csv "$tmp/t.csv" "$2" "$3" >/dev/null 2>&1
    awk -F, 'NR==2 {a=$4; am=$7} NR==3 {b=$4; bm=$7} END {print a/b, am/bm, a*1000, b*1000}' "$tmp/t.csv"
  done >"$tmp/rounds"
  # The median of the rounds' ratios of medians (with the round it came
  # from, for the times), the range, and the median ratio of minimums.
  local mid=$(( (rounds + 1) / 2 ))
  sort -n -k1,1 "$tmp/rounds" | awk -v name="$1" -v n="$rounds" -v k="$mid" \
    -v mins="$(sort -n -k2,2 "$tmp/rounds" | sed -n "${mid}p" | cut -d' ' -f2)" '
    NR == 1 { lo = $1 } NR == k { r = $1; a = $3; b = $4 } NR == n { hi = $1 }
    END { printf "%-20s orgctl / floor = %.2fx, median of %d rounds (%.2fx-%.2fx; %.1f / %.1f ms); %.2fx of minimums\n", name, r, n, lo, hi, a, b, mins }'
}

ratio "--version" "$tmp/orgctl --version" "$tmp/floor --version"
ratio "users list --help" "$tmp/orgctl users list --help" "$tmp/floor fam1 op1 --help"
ratio "--help" "$tmp/orgctl --help" "$tmp/floor --help"
ratio "completion" "$tmp/orgctl __complete users li" "$tmp/floor __complete fam1 o"
ratio "floor + HTTPS client" "$tmp/floor-https --version" "$tmp/floor --version" | sed 's|orgctl / floor|    it / floor|'
ratio "floor + orgctl's deps" "$tmp/floor-deps --version" "$tmp/floor --version" | sed 's|orgctl / floor|    it / floor|'
# orgctl against that reference, in rounds of its own: what orgctl's own
# code and its larger binary add once the libraries have run their init
# (the reference also builds the floor's 150 commands, which orgctl's
# --version does not).
ratio "--version" "$tmp/orgctl --version" "$tmp/floor-deps --version" | sed 's|orgctl / floor|orgctl / (floor + deps)|'
if [ -x "$tmp/orgctl-nocache" ]; then
  ratio "--version" "$tmp/orgctl-nocache --version" "$tmp/floor --version" | sed 's|orgctl / floor|orgctl, no table cache at init / floor|'
  ratio "users list --help" "$tmp/orgctl-nocache users list --help" "$tmp/floor fam1 op1 --help" | sed 's|orgctl / floor|orgctl, no table cache at init / floor|'
else
  echo "orgctl without tablewriter's init cache: skipped, tablewriter's init is not the one this script knows"
fi

# The same pairs counted in instructions executed, which the machine's load
# hardly changes (apt-get install -y valgrind): each round runs both under
# cachegrind, and the figure is the median of the rounds' ratios. Go's
# asynchronous preemption is turned off for the count: under valgrind's
# slowdown its signals would fire at random points and add noise.
# The fewest minor page faults in 5 runs (GNU time's %R), or nothing
# where /usr/bin/time is missing.
faults() {
  [ -x /usr/bin/time ] || return 0
  for _ in 1 2 3 4 5; do /usr/bin/time -f %R "$@" 2>&1 >/dev/null | tail -1; done | sort -n | head -1
}
instructions() {
  GODEBUG=asyncpreemptoff=1 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    awk '/I +refs/ { gsub(",", "", $NF); print $NF }'
}
iratio() { # name, orgctl command, floor command
  local rounds=${IROUNDS:-7}
  for _ in $(seq "$rounds"); do
    echo "$(instructions $2) $(instructions $3)"
  done | awk '{ print $1/$2, $1, $2 }' | sort -n | awk -v name="$1" -v n="$rounds" -v k="$(( (rounds + 1) / 2 ))" '
    NR == 1 { lo = $1 } NR == k { r = $1; a = $2; b = $3 } NR == n { hi = $1 }
    END { printf "%-20s orgctl / floor = %.2fx in instructions, median of %d rounds (%.2fx-%.2fx; %.2fM / %.2fM)\n", name, r, n, lo, hi, a/1e6, b/1e6 }'
}
if command -v valgrind >/dev/null 2>&1; then
  iratio "--version" "$tmp/orgctl --version" "$tmp/floor --version"
  iratio "users list --help" "$tmp/orgctl users list --help" "$tmp/floor fam1 op1 --help"
  iratio "floor + orgctl's deps" "$tmp/floor-deps --version" "$tmp/floor --version" | sed 's|orgctl / floor|    it / floor|'
  # Each library orgctl adds to the floor's, linked alone: what its init
  # costs in instructions (median of 3) and in page faults (the fewest of
  # 5 runs), the part of start-up a busy machine makes dearest.
  echo "each library alone, over the floor:"
  base=$(for _ in 1 2 3; do instructions "$tmp/floor" --version; done | sort -n | sed -n 2p)
  basepf=$(faults "$tmp/floor" --version)
  # orgctl's direct requirements that it links and the floor does not
  # have; each is linked with what it needs in turn.
  go list -m -f '{{if not .Indirect}}{{.Path}}{{end}}' all | sort >"$tmp/direct"
  (cd "$tmp/floor-src" && go list -m all | cut -d' ' -f1 | sort) >"$tmp/floormods"
  grep -o ' [^ ]*@' "$tmp/deps" | tr -d ' @' | sort -u | comm -12 - "$tmp/direct" | comm -23 - "$tmp/floormods" |
    while read -r m; do
      n=floor-$(echo "$m" | tr '/.' '__')
        floor_with "$n" " $m@" >/dev/null 2>&1 || continue
      i=$(for _ in 1 2 3; do instructions "$tmp/$n" --version; done | sort -n | sed -n 2p)
      awk -v m="$m" -v i="$i" -v b="$base" -v pf="$(faults "$tmp/$n" --version)" -v bpf="$basepf" \
        'BEGIN { printf "  %+6.2fM instructions (%+3.0f%%), %+4s page faults  %s\n", (i-b)/1e6, 100*(i-b)/b, (pf == "" ? "?" : pf-bpf), m }'
    done | sort -rn
else
  echo "instructions: skipped, valgrind is not installed (apt-get install -y valgrind)"
fi

# Where orgctl's start-up goes beyond the floor's: the packages whose init
# costs most, each its minimum over 20 runs (GODEBUG=inittrace=1 prints one
# line per package: "init <pkg> @<start> ms, <clock> ms clock, ...").
for _ in $(seq 20); do GODEBUG=inittrace=1 "$tmp/orgctl" --version 2>&1 >/dev/null; done |
  awk '$1 == "init" { if (!($2 in m) || $5 < m[$2]) m[$2] = $5 }
       END { for (p in m) printf "%.2f %s\n", m[p], p }' |
  sort -rn | head -8 | awk 'NR == 1 { print "package init, minimum of 20 runs:" } { printf "  %5.2f ms  %s\n", $1, $2 }'
