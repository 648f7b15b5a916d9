#!/usr/bin/env bash
# Prints the points org as code spends on a large org against the least
# the API allows for the same work. The org: the demo org plus NUSERS users
# (5,000), NGROUPS groups (300), NFOLDERS folders (400) and NGRANTS direct
# grants (500: to groups and to users), built with bulk jobs against
# `orgctl sandbox serve` on loopback. Every request orgctl sends is counted
# from its --debug log and priced with `orgctl budget price`; the
# minimum is worked out from the org's shape, read with curl:
#   a read of the org   one list per kind (the API returns every item
#                       without a limit) and one access list per folder
#                       and app (the only way the API tells direct grants)
#   a groups-only plan  the list of groups (it names members by id and
#                       email; no landing page is set)
#   a saved apply       the lists of the kinds it changes and those its
#                       changes need (a group change: groups), then one
#                       write per change
# The budget is set high so that the figures are points, not waits.
set -euo pipefail
cd "$(dirname "$0")/.."
NUSERS=${NUSERS:-5000} NGROUPS=${NGROUPS:-300} NFOLDERS=${NFOLDERS:-400} NGRANTS=${NGRANTS:-500} CHANGES=${CHANGES:-50}
. .ci/sandbox-lib.sh
o="$tmp/orgctl"
export ORGCTL_BUDGET_POINTS=100000000 ORGCTL_SECRET_STRIPE_KEY_PRODUCTION=figures-only
serve org --users "$NUSERS" --points 100000000
set -a; . "$tmp/org.env"; set +a

# the org
{ echo name; for i in $(seq "$NGROUPS"); do printf 'load-group-%03d\n' "$i"; done; } >"$tmp/groups.csv"
{ echo name,type; for i in $(seq "$NFOLDERS"); do printf 'Load %03d,app\n' "$i"; done; } >"$tmp/folders.csv"
{ echo group,user,object-type,object-id,access-level
  for i in $(seq "$NGRANTS"); do
    f=$(( (i - 1) % NFOLDERS + 1 ))
    if [ $(( i % 5 )) -eq 0 ]; then printf ',user%06d@load.example,folder,app:/Load %03d,use\n' "$i" "$f"
    else printf 'load-group-%03d,,folder,app:/Load %03d,edit\n' "$(( (i - 1) % NGROUPS + 1 ))" "$f"; fi
  done; } >"$tmp/grants.csv"
"$o" groups create --from "$tmp/groups.csv" -q >/dev/null
"$o" folders create --from "$tmp/folders.csv" -q >/dev/null
"$o" permissions grant --from "$tmp/grants.csv" -q >/dev/null

count() { curl -fsS -H "Authorization: Bearer $ORGCTL_TOKEN" "$ORGCTL_BASE_URL/api/v2/$1" | tr ',' '\n' | grep -c "$2"; }
nfolders=$(count folders '"folder_type"')
napps=$(count apps '"uuid"\|"id":"[0-9a-f]\{8\}-')
nusers=$(count users '"email"')
echo "org: $nusers users, $(count groups '"universal_app_access"') groups, $nfolders folders, $napps apps, $NGRANTS grants added"

measure() { # label, minimum points, command...
  local label=$1 min=$2; shift 2
  "$@" --debug >"$tmp/out" 2>"$tmp/log" || [ $? -eq 7 ]
  set -- $(price "$tmp/log")
  awk -v l="$label" -v n="$1" -v p="$2" -v m="$min" 'BEGIN { printf "%-34s %5d requests %6d points; minimum %6d points: %.3fx\n", l, n, p, m, p / m }'
}
lists=$(( 2 + 5 + 2 + 2 + 5 + 10 + 5 + 5 + 10 )) # users groups folders apps environments config-vars themes user-attributes organization
read_min=$(( lists + 10 * (nfolders + napps) ))
measure "export" "$read_min" "$o" export --dir "$tmp/org"
measure "plan, no change" "$read_min" "$o" plan --dir "$tmp/org" --exit-code
mkdir "$tmp/groups-only" && cp -r "$tmp/org/groups" "$tmp/groups-only/"
measure "plan of a groups-only directory" 5 "$o" plan --dir "$tmp/groups-only" --exit-code
for f in $(ls "$tmp/org/groups"/load-group-*.yaml | head -"$CHANGES"); do
  sed -i 's/^universal_app_access: .*/universal_app_access: use/' "$f"
done
measure "plan of $CHANGES changes (--out)" "$read_min" "$o" plan --dir "$tmp/org" --out "$tmp/org.plan"
plan_pts=$(price "$tmp/log" | cut -d' ' -f2)
measure "apply of the saved plan" $(( 5 + 5 * CHANGES )) "$o" apply "$tmp/org.plan" --yes
apply_pts=$(price "$tmp/log" | cut -d' ' -f2)
awk -v p="$plan_pts" -v a="$apply_pts" -v m="$(( read_min + 5 + 5 * CHANGES ))" 'BEGIN {
  printf "%-34s %20d points; minimum %6d points: %.3fx\n", "plan + saved apply", p + a, m, (p + a) / m }'
"$o" plan --dir "$tmp/org" --exit-code >/dev/null 2>&1 && echo "plan afterwards: no changes" || echo "plan afterwards: CHANGES LEFT"
