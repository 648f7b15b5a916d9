#!/usr/bin/env bash
# Prints what `orgctl users offboard` spends on an org of 5,000 users
# (`orgctl sandbox serve --users --groups --folders`, on loopback) for a user
# in 10 groups with 5 direct grants, against the least the API allows: the
# user list (2), the groups with their members (5), per object type one listObjects of the
# user's own grants (4 x 10: what to revoke) and one of their effective
# access (4 x 10: what they reach before), then the steps: disable (2), leave
# each group (5 each), revoke each direct grant (10 each). The access tokens
# (whose token this is: never offboarded) are read only to offboard an admin,
# since only admins create tokens; the leaver here is none. What remains after
# follows from those and is not read. Output is piped, so objects are named
# by id and the lists that name them for a terminal are not read.
#
# With SPACES=2 (the default) it then offboards the same user from two
# Spaces at once (`--profiles eng,ops`, two sandboxes) and prints the points
# of each Space against that Space's own minimum, and the same for a
# two-Space `permissions report` (minimum: its lists and one access list per
# object, as report_min in .ci/sandbox-lib.sh counts them), each priced from the
# requests orgctl logs (--debug), not from orgctl's own arithmetic.
set -euo pipefail
cd "$(dirname "$0")/.."
users=${USERS:-5000} groups=${GROUPS_N:-300} folders=${FOLDERS:-400} spaces=${SPACES:-2}
. .ci/sandbox-lib.sh
export ORGCTL_BUDGET_POINTS=100000
# GET /access_tokens as the price list prices it (the seed lists no family
# for it, and an unlisted family is priced at the highest)
tokens=$(printf '> GET http://h/api/v2/access_tokens\n' | price | cut -d' ' -f2)

# oc NAME ARGS...: run orgctl against sandbox NAME
oc() { on "$1" "$tmp/orgctl" "${@:2}"; }
# prepare NAME: put the leaver in 10 groups with 5 direct grants
leaver=user000042@load.example
prepare() {
  local name=$1
  local have
  have=$(oc "$name" groups list -o json --jq "[.[] | select(.members | map(.email) | index(\"$leaver\"))] | length" 2>/dev/null)
  oc "$name" groups list -o json --jq ".[] | select(.name | startswith(\"load-group-\")) | select(.members | map(.email) | index(\"$leaver\") | not) | .name" 2>/dev/null |
    head -$(( 10 - have )) >"$tmp/groups"
  while read -r g; do
    oc "$name" groups members add "$g" --user "$leaver" >/dev/null 2>&1 || true
  done <"$tmp/groups"
  oc "$name" folders list -o json --jq '.[] | select(.parent_folder_id != null and .folder_type == "app") | .id' 2>/dev/null | head -5 >"$tmp/folders"
  while read -r id; do
    oc "$name" permissions grant --user "$leaver" --object-type folder --object-id "$id" --access-level edit >/dev/null 2>&1
  done <"$tmp/folders"
}
# minimum NAME: the least the API allows to offboard the leaver in NAME
minimum() {
  local name=$1 g d
  g=$(oc "$name" groups list -o json --jq "[.[] | select(.members | map(.email) | index(\"$leaver\"))] | length" 2>/dev/null)
  d=$(oc "$name" permissions list-objects --user "$leaver" --direct -o json --jq 'length' 2>/dev/null)
  echo "$g $d $(( 2 + 5 + 40 + 40 + 2 + 5 * g + 10 * d ))"
}

serve eng --points 100000 --users "$users" --groups "$groups" --folders "$folders"
prepare eng
set -- $(minimum eng)
g=$1 d=$2 min=$3
# what naming objects for a person costs: the same dry run piped and at a terminal
oc eng --debug users offboard "$leaver" --dry-run >/dev/null 2>"$tmp/dry.err"
ORGCTL_FORCE_TTY=1 oc eng --debug users offboard "$leaver" --dry-run >/dev/null 2>"$tmp/drytty.err"
named=$(( $(price "$tmp/drytty.err" | cut -d' ' -f2) - $(price "$tmp/dry.err" | cut -d' ' -f2) ))
oc eng --debug users offboard "$leaver" --yes >"$tmp/off.out" 2>"$tmp/off.err"
[ -n "${VERBOSE:-}" ] && grep '^> ' "$tmp/off.err" >&2
set -- $(price "$tmp/off.err")
echo "offboard, one Space: $leaver in $g groups with $d direct grants, $users users"
awk -v s="$2" -v r="$1" -v m="$min" 'BEGIN { printf "  sent %d requests, %d points / %d minimum = %.3fx (goal: at most 195 points)\n", r, s, m, s/m }'
echo "  (offboarding an admin also reads GET /access_tokens: $tokens points by orgctl budget price)"
echo "  at a terminal, naming the objects (lists of folders, apps, resources, resource configurations) adds $named points"

[ "$spaces" -ge 2 ] || exit 0

# Two Spaces, each a sandbox org and a profile, at once: each Space's
# requests are priced from its own lines of the log ("[eng] > GET ...").
serve ops --points 100000 --users "$users" --groups "$groups" --folders "$folders"
prepare ops
for name in eng ops; do
  ( set -a; . "$tmp/$name.env"; set +a
    printf %s "$ORGCTL_TOKEN" | ORGCTL_TOKEN= ORGCTL_BASE_URL= "$tmp/orgctl" auth login --profile "$name" \
      --with-token --insecure-storage --base-url "$ORGCTL_BASE_URL" >/dev/null 2>&1 )
done
# eng's leaver was offboarded above: put them back in its groups and grants
oc eng users enable "$leaver" >/dev/null 2>&1
prepare eng
# space NAME LOG: the requests and points of NAME's lines of LOG
space() { sed -n "s/^\[$1\] //p" "$2" | price; }
declare -A omin rmin
for name in eng ops; do
  set -- $(minimum "$name"); omin[$name]=$3
  set -- $(report_min "$name"); rmin[$name]=$1
done
"$tmp/orgctl" --debug permissions report --profiles eng,ops -o csv >"$tmp/rep2.csv" 2>"$tmp/rep2.err"
"$tmp/orgctl" --debug users offboard "$leaver" --profiles eng,ops --yes >"$tmp/off2.out" 2>"$tmp/off2.err"
for job in report offboard; do
  log=$tmp/rep2.err; [ "$job" = offboard ] && log=$tmp/off2.err
  total=0 totmin=0
  for name in eng ops; do
    set -- $(space "$name" "$log")
    m=${rmin[$name]}; [ "$job" = offboard ] && m=${omin[$name]}
    awk -v j="$job" -v n="$name" -v r="$1" -v s="$2" -v m="$m" 'BEGIN { printf "%s, two Spaces, %s: sent %d requests, %d points / %d minimum = %.3fx\n", j, n, r, s, m, s/m }'
    total=$(( total + $2 )) totmin=$(( totmin + m ))
  done
  awk -v j="$job" -v s="$total" -v m="$totmin" 'BEGIN { printf "%s, two Spaces: %d points / %d, the sum of the two minima = %.3fx\n", j, s, m, s/m }'
done
echo "report, two Spaces: $(( $(grep -c '^eng,' "$tmp/rep2.csv") )) rows of eng, $(( $(grep -c '^ops,' "$tmp/rep2.csv") )) rows of ops"
