# Sourced (not run) by the .ci scripts that measure orgctl against
# `orgctl sandbox serve` on loopback, so that they set up, start sandboxes
# and clean up the same way: the binary and a private HOME in $tmp, every
# sandbox stopped and $tmp removed on exit. The sourcing script is at the
# repository root (it cd's there first) and runs with set -euo pipefail.
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT
go build -o "$tmp/orgctl" .
export HOME="$tmp" XDG_CONFIG_HOME="$tmp/config" XDG_STATE_HOME="$tmp/state" XDG_CACHE_HOME="$tmp/cache"

# serve NAME FLAGS...: start a sandbox in the background whose two export
# lines land in $tmp/NAME.env, and wait for them (a large seeded org takes
# a few seconds)
serve() {
  local name=$1; shift
  "$tmp/orgctl" sandbox serve "$@" >"$tmp/$name.env" 2>/dev/null &
  pids+=($!)
  for _ in $(seq 400); do [ -s "$tmp/$name.env" ] && [ "$(wc -l <"$tmp/$name.env")" -ge 2 ] && return; sleep 0.05; done
  echo "sandbox $name did not start" >&2; exit 1
}
# on NAME CMD...: run CMD with sandbox NAME's exports
on() { ( set -a; . "$tmp/$1.env"; set +a; shift; "$@" ); }
# price [LOG]: "REQUESTS POINTS LEAST_SECONDS" of a --debug log (or stdin),
# by orgctl's one price list (`orgctl budget price`)
price() { "$tmp/orgctl" budget price -o json --jq '"\(.requests) \(.points) \(.least_seconds)"' "$@"; }
# report_min NAME: "MINIMUM FOLDERS APPS RESOURCES WORKFLOWS" of a
# `permissions report` of sandbox NAME: the least the API allows is the
# lists that name users, groups and objects once (users 2, groups 5,
# folders 2, apps 2, resources 5, workflows 10) and one access list (10)
# per object it covers; the folders are each type's root and every folder
# under it (personal trees and file folders are left out)
report_min() {
  local f a r w
  f=$(on "$1" "$tmp/orgctl" folders list -o json --jq "$(cat .ci/report-folders.jq)" 2>/dev/null)
  a=$(on "$1" "$tmp/orgctl" apps list -o json --jq 'length' 2>/dev/null)
  r=$(on "$1" "$tmp/orgctl" resources list -o json --jq 'length' 2>/dev/null)
  w=$(on "$1" "$tmp/orgctl" workflows list -o json --jq 'length' 2>/dev/null)
  echo "$(( 2 + 5 + 2 + 2 + 5 + 10 + 10 * (f + a + r + w) )) $f $a $r $w"
}
