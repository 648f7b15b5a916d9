#!/usr/bin/env bash
# Prints org as code's figures against two `orgctl sandbox serve` orgs on
# loopback at the real budget (300 points per 60 s): what a plan of the demo
# org costs to read, and how long `apply` of the demo org onto an empty one
# takes, compared with the least time the budget allows for the points it
# spends and with the same apply against an unlimited budget (the request
# time alone, measured in the same run). USERS=N adds N synthetic users to
# the demo org, so that the copy needs more than one window of points.
set -euo pipefail
cd "$(dirname "$0")/.."
users=${USERS:-0}
. .ci/sandbox-lib.sh
export ORGCTL_SECRET_STRIPE_KEY_PRODUCTION=figures-only

serve demo --users "$users"
serve empty --org empty
serve fast --org empty --points 1000000 --window 60s

on demo "$tmp/orgctl" export --dir "$tmp/org" 2>/dev/null
# The export and a plan read the same lists; the plan says what its read cost.
read_json=$(on demo "$tmp/orgctl" plan --dir "$tmp/org" -o json 2>/dev/null)
read_req=$(echo "$read_json" | sed -E "s/.*\"read_requests\":([0-9]+).*/\1/")
read_pts=$(echo "$read_json" | sed -E 's/.*"read_points":([0-9]+).*/\1/')
echo "plan of the demo org (+$users users): reads $read_req requests, $read_pts points"

apply_on() { # org, budget points (0: the real one)
  local start end
  start=$(date +%s.%N)
  # exit 1: the grants on the demo org's app are blocked (the empty org
  # has no app); everything else is sent
  if [ "$2" = 0 ]; then
    on "$1" "$tmp/orgctl" apply --dir "$tmp/org" --yes >"$tmp/$1.out" 2>"$tmp/$1.err" || [ $? -eq 1 ]
  else
    ORGCTL_BUDGET_POINTS=$2 on "$1" "$tmp/orgctl" apply --dir "$tmp/org" --yes >"$tmp/$1.out" 2>"$tmp/$1.err" || [ $? -eq 1 ]
  fi
  end=$(date +%s.%N)
  echo "$start $end" | awk '{printf "%.2f", $2-$1}'
}
t_fast=$(apply_on fast 1000000)
t_real=$(apply_on empty 0)
set -- $(sed -nE 's/^Cost: the read took ([0-9]+) requests?, ([0-9]+) points?; the changes are ([0-9]+) requests?, ([0-9]+) points?.*/\3 \4 \1 \2/p' "$tmp/empty.out")
total=$(( $2 + $4 ))
min=$(( (total - 1) / 300 * 60 ))
echo "apply onto the empty org: $1 write requests ($2 points) after a read of $3 requests ($4 points): $total points"
echo "  at the real budget:      ${t_real}s"
echo "  unlimited budget (ref):  ${t_fast}s"
echo "  budget minimum for $total points at 300 per 60s: ${min}s"
awk -v r="$t_real" -v f="$t_fast" -v m="$min" 'BEGIN {
  printf "  real / reference = %.1fx; real - budget minimum = %.2fs (pacing overhead beyond what the budget forces)\n", r/f, r-m }'
left=$(on empty "$tmp/orgctl" plan --dir "$tmp/org" -o json --jq '.changes | length' 2>/dev/null || true)
blocked=$(on empty "$tmp/orgctl" plan --dir "$tmp/org" -o json --jq '.blocked | length' 2>/dev/null || true)
[ "$left" = 0 ] && echo "  plan afterwards: no changes; $blocked blocked (grants on an app the empty org lacks)" || echo "  plan afterwards: CHANGES LEFT"
