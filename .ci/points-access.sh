#!/usr/bin/env bash
# Prints what `orgctl permissions report` spends on an org of 5,000 users,
# 300 groups and 400 folders (`orgctl sandbox serve --users --groups
# --folders`, on loopback): its points against the least the API allows for
# that org, and its wall time against the least the budget allows for the
# points it spent. The points are counted from the requests orgctl logs
# (--debug), priced by `orgctl budget price`, not from the report's own
# arithmetic. The minimum is the lists that name users, groups and objects,
# plus one access list per object (the cheaper of the two ways here; the
# report prints both).
#
# The budget is the real one's 300 points, over a shorter window
# (WINDOW, default 3s rather than 60s) so that the run takes minutes, not
# half an hour: the time ratio is the same at any window. USERS, GROUPS and
# FOLDERS change the org's size.
set -euo pipefail
cd "$(dirname "$0")/.."
users=${USERS:-5000} groups=${GROUPS_N:-300} folders=${FOLDERS:-400} window=${WINDOW:-3s} points=300
. .ci/sandbox-lib.sh
serve org --users "$users" --groups "$groups" --folders "$folders" \
  --points "$points" --window "$window" --block "$window"
set -a; . "$tmp/org.env"; set +a
export ORGCTL_BUDGET_POINTS=$points ORGCTL_BUDGET_WINDOW=$window

start=$(date +%s.%N)
"$tmp/orgctl" --debug permissions report -o csv >"$tmp/report.csv" 2>"$tmp/report.err"
end=$(date +%s.%N)

# points spent: every request the report sent, priced by family
set -- $(price "$tmp/report.err")
sent_req=$1 sent_pts=$2 min_time=$3

# the least the API allows: the same lists once, and one access list per object
set -- $(report_min org)
min_pts=$1 n_folders=$2 n_apps=$3 n_res=$4 n_wf=$5
objects=$(( n_folders + n_apps + n_res + n_wf ))

rows=$(( $(wc -l <"$tmp/report.csv") - 1 ))
echo "org: $users users (+5 demo), $groups groups (+6), $objects objects ($n_folders folders, $n_apps apps, $n_res resources, $n_wf workflows)"
grep -E '^(  access-lists|reading by)' "$tmp/report.err" | sed 's/^/report said: /'
echo "report: $rows rows; sent $sent_req requests, $sent_pts points"
awk -v s="$sent_pts" -v m="$min_pts" 'BEGIN { printf "points: %d spent / %d minimum for this org = %.3fx (goal: at most 1.05x)\n", s, m, s/m }'
awk -v st="$start" -v en="$end" -v m="$min_time" -v p="$points" -v w="$window" 'BEGIN {
  e = en - st; printf "time: %.1fs elapsed / %gs budget minimum for those points at %d per %s = %.3fx\n", e, m, p, w, e/m }'
