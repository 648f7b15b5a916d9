#!/usr/bin/env bash
# Prints, for the bulk jobs an admin runs most (5,000 users; 12,500
# memberships over 300 groups; 500 grants; and 600 memberships over 30
# groups), each job's points against the minimum the API allows for it, and
# its elapsed time against the least time the budget allows for the points
# it spent. The jobs run against `orgctl sandbox serve --org empty` on
# loopback. The budget is the real one's 300 points, but per WINDOW
# (default 6s, ten times the real 60 s) so that the run takes minutes, not
# an hour: the pacing is the same, only the window is shorter. WINDOW=60s
# runs at the real budget (about 55 minutes).
#
# Points are measured, not predicted: each job runs with --debug and every
# request it sent is priced by `orgctl budget price`, orgctl's one price list
# (users, folders 2; groups 5; permissions 10), which also gives the least
# time the budget needs for those points. The minimum is what the API cannot do without:
# one write per row, or per group where POST /groups/{id}/members takes an
# array, plus one list per kind of names in the file. Each job starts with
# an empty window (the script waits one window between jobs).
set -euo pipefail
cd "$(dirname "$0")/.."
window=${WINDOW:-6s}
wsec=${window%s}
. .ci/sandbox-lib.sh
export ORGCTL_BUDGET_POINTS=300 ORGCTL_BUDGET_WINDOW=$window ORGCTL_COMPLETION_CACHE_TTL=0

# job ORG LABEL MINIMUM ORGCTL-ARGS...: run one job, print its figures
job() {
  local org=$1 label=$2 min=$3; shift 3
  sleep "$wsec" # an empty window: the job's own points only
  local start end
  start=$(date +%s.%N)
  on "$org" "$tmp/orgctl" "$@" --debug >"$tmp/out" 2>"$tmp/err" || { echo "$label: exit $?" >&2; tail -5 "$tmp/err" >&2; exit 1; }
  end=$(date +%s.%N)
  set -- $(price "$tmp/err")
  awk -v label="$label" -v min="$min" -v start="$start" -v end="$end" -v n="$1" -v pts="$2" -v least="$3" 'BEGIN {
      took = end - start
      printf "%-44s %6d requests %6d points, minimum %6d: %.3fx; ", label, n, pts, min, pts / min
      if (least > 0) printf "%7.1fs, budget minimum %6.1fs: %.3fx\n", took, least, took / least
      else printf "%7.1fs (fits in one window: no budget wait)\n", took
    }'
}

echo "budget: 300 points per ${window} (the real budget is 300 per 60s)"

# 5,000 users, 300 groups, 12,500 memberships, 50 folders, 500 grants
serve big --org empty --points 300 --window "$window" --block "$window"
awk 'BEGIN { print "email,first-name,last-name"; for (i = 1; i <= 5000; i++) printf "person%05d@bulk.example,Person,N%05d\n", i, i }' >"$tmp/users.csv"
awk 'BEGIN { print "name"; for (g = 1; g <= 300; g++) printf "team-%03d\n", g }' >"$tmp/groups.csv"
awk 'BEGIN { print "group-id,user"; for (i = 0; i < 12500; i++) printf "team-%03d,person%05d@bulk.example\n", i % 300 + 1, (i * 7) % 5000 + 1 }' >"$tmp/members.csv"
awk 'BEGIN { print "name"; for (f = 1; f <= 50; f++) printf "Area %02d\n", f }' >"$tmp/folders.csv"

job big "users create: 5,000 users" 10000 users create --from "$tmp/users.csv"
job big "groups create: 300 groups" 1500 groups create --from "$tmp/groups.csv"
job big "members add: 12,500 over 300 groups" 1507 groups members add --from "$tmp/members.csv"
on big "$tmp/orgctl" folders create --type app --from "$tmp/folders.csv" >"$tmp/folders.out" 2>/dev/null
# 500 grants: 10 groups on each of the 50 folders, by group name and folder id
cut -f5 "$tmp/folders.out" | awk 'BEGIN { print "group,object-id" } { for (k = 0; k < 10; k++) printf "team-%03d,%s\n", (NR * 10 + k) % 300 + 1, $1 }' >"$tmp/grants.csv"
job big "grant --on-exists update: 500 grants" 5005 permissions grant --object-type folder --access-level use --on-exists update --from "$tmp/grants.csv"

# 600 memberships over 30 groups, in an org of 600 users
serve small --org empty --users 600 --points 300 --window "$window" --block "$window"
awk 'BEGIN { print "name"; for (g = 1; g <= 30; g++) printf "squad-%02d\n", g }' >"$tmp/squads.csv"
awk 'BEGIN { print "group-id,user"; for (i = 0; i < 600; i++) printf "squad-%02d,user%06d@load.example\n", i % 30 + 1, i + 1 }' >"$tmp/squad-members.csv"
on small "$tmp/orgctl" groups create --from "$tmp/squads.csv" >/dev/null 2>&1
job small "members add: 600 over 30 groups" 157 groups members add --from "$tmp/squad-members.csv"
