#!/usr/bin/env bash
# Prints the points of each seat command on a 5,000-user sandbox org
# (`orgctl sandbox serve --users 5000 --groups 300 --folders 400`: the demo
# org plus synthetic users whose sign-ins are spread over 400 days, every
# tenth never), priced from the requests orgctl logs (--debug), against the
# least the API allows for the same answer:
#   users inactive --days 90            one GET /users (2)
#   users inactive --days 90 --usage    that and one GET /usage/user_summary (10)
#   users reclaim --days 90 --dry-run   one GET /users (2); /api/v2/spec is free
#   users reclaim --days 90 --yes       that, and per reclaimed user one DELETE
#                                       /users/{id} (2) and, where the instance
#                                       publishes it, one logout (2)
#   permissions unused --days 90        GET /apps, /users (2 each), /groups (5),
#                                       an access list per app (10 each), the
#                                       user and app usage summaries (10 each),
#                                       and one user's details (10) per user who
#                                       viewed an app in the window and holds a
#                                       grant (every synthetic user is in a
#                                       granted group; the demo admin holds none)
#   users sync --group-column department (an HR file of every synthetic user,
#                                       one in seventy moved to the next group)
#                                       GET /users (2) and /groups (5); with
#                                       --yes that, one POST per group gaining
#                                       members (5) and one DELETE per member
#                                       leaving (5)
set -euo pipefail
cd "$(dirname "$0")/.."
users=${USERS:-5000} groups=${GROUPS_N:-300} folders=${FOLDERS:-400}
. .ci/sandbox-lib.sh
export ORGCTL_BUDGET_POINTS=1000000
oc() { on seats "$tmp/orgctl" "$@"; }
serve seats --points 1000000 --users "$users" --groups "$groups" --folders "$folders"

# measure NAME MINIMUM ARGS...: run orgctl ARGS with --debug and print its
# requests and points against MINIMUM
measure() {
  local name=$1 min=$2; shift 2
  oc --debug "$@" >"$tmp/out" 2>"$tmp/err" || [ $? -eq 7 ]
  set -- $(price "$tmp/err")
  awk -v n="$name" -v r="$1" -v s="$2" -v m="$min" 'BEGIN { printf "%-38s %5d requests %7d points / %7d minimum = %.3fx\n", n, r, s, m, s/m }'
}

echo "seat commands on $users synthetic users plus the demo org ($groups groups, $folders folders)"
measure "users inactive --days 90" 2 users inactive --days 90 -o json
stale=$(oc users inactive --days 90 -o json --jq 'length' 2>/dev/null)
measure "users inactive --days 90 --usage" 12 users inactive --days 90 --usage -o json
measure "users reclaim --days 90 --dry-run" 2 users reclaim --days 90 --dry-run
apps=$(oc apps list -o json --jq 'length' 2>/dev/null)
start=$(date -u -d '-90 days' +%F) today=$(date -u +%F)
viewers=$(oc usage users --start "$start" --end "$today" -o json --jq '[.[] | select(.count_app_views > 0 and .email != "admin@sandbox.example")] | length' 2>/dev/null)
measure "permissions unused --days 90" $(( 2 + 2 + 5 + 10 * apps + 10 + 10 + 10 * viewers )) permissions unused --days 90 -o json
echo "  ($apps apps, $viewers users with views and a grant, $(oc permissions unused --days 90 -o json --jq 'length' 2>/dev/null) grants listed)"
kept=$(oc users inactive --days 90 -o json --jq '[.[] | select(.is_admin)] | length' 2>/dev/null)
n=$(( stale - kept ))
logout=1
oc api /spec >/dev/null 2>&1 || true
curl -fsS "$(. "$tmp/seats.env"; echo "$ORGCTL_BASE_URL")/api/v2/spec" 2>/dev/null | grep -q '"/users/{userId}/logout"' || logout=0
measure "users reclaim --days 90 --yes" $(( 2 + n * 2 * (1 + logout) )) users reclaim --days 90 --yes
echo "  ($n users reclaimed of $stale listed, $kept admins kept; logout published: $logout)"
measure "users reclaim --days 90 --yes (again)" 2 users reclaim --days 90 --yes

# an HR file of every synthetic user in their group (load-group-(n mod
# groups)), one in seventy moved to the next group (so each group a user
# leaves is still named by other rows, and governed)
awk -v n="$users" -v g="$groups" 'BEGIN { print "email,first_name,last_name,department"
  for (i = 1; i <= n; i++) { k = i % g; if (i % 70 == 0) k = (i + 1) % g
    printf "user%06d@load.example,Load,User%06d,load-group-%03d\n", i, i, k } }' >"$tmp/hr.csv"
moved=$(( users / 70 ))
gaining=$(awk -v n="$users" -v g="$groups" 'BEGIN { for (i = 70; i <= n; i += 70) s[(i + 1) % g] = 1; for (k in s) c++; print c }')
measure "users sync --group-column (plan)" 7 users sync --from "$tmp/hr.csv" --group-column department
measure "users sync --group-column --yes" $(( 7 + 5 * gaining + 5 * moved )) users sync --from "$tmp/hr.csv" --group-column department --yes
echo "  ($moved users moved between groups; $gaining groups gain members)"
measure "users sync --group-column (again)" 7 users sync --from "$tmp/hr.csv" --group-column department --exit-code
