# Prices the requests of an orgctl --debug log, as the service's price list
# does (ratebudget/cost.go holds the same list, and a test there keeps the
# two equal): each "> METHOD URL" line is one request sent, priced by its
# family, the path segment after /api/v2/. Prints "REQUESTS POINTS".
BEGIN {
  cost["apps"] = 2; cost["folders"] = 2; cost["users"] = 2
  cost["access_requests"] = 5; cost["app_themes"] = 5; cost["environments"] = 5
  cost["groups"] = 5; cost["resources"] = 5; cost["resource_configurations"] = 5
  cost["source_control"] = 5; cost["spaces"] = 5; cost["sso"] = 5
  cost["user_attributes"] = 5; cost["user_invites"] = 5; cost["permissions"] = 10
  alias["role_permissions"] = "permissions"; alias["environment"] = "environments"
  alias["user_invite"] = "user_invites"; alias["access_request"] = "access_requests"
  unknown = 10
}
/^> (GET|POST|PUT|PATCH|DELETE) / {
  split($3, u, "/api/v2/"); split(u[2], seg, /[\/?]/); fam = tolower(seg[1])
  if (fam in alias) fam = alias[fam]
  n++; points += (fam in cost) ? cost[fam] : unknown
}
END { printf "%d %d\n", n, points }
