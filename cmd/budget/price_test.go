package budget

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/orgctl/orgctl/ratebudget"
)

// A --debug log as the client writes it: request lines, their answers,
// retries and anything else a run prints.
const debugLog = `> GET http://127.0.0.1:4242/api/v2/users?limit=100 (Authorization: Bearer [redacted])
< 200 OK in 3ms
> POST http://127.0.0.1:4242/api/v2/groups/7/members (Authorization: Bearer [redacted])
< 503 Service Unavailable in 1ms
* retry 1 of POST /api/v2/groups/7/members in 250ms
> POST http://127.0.0.1:4242/api/v2/groups/7/members (Authorization: Bearer [redacted])
> GET https://acme.example.com/space/eng/api/v2/role_permissions/roles (Authorization: Bearer [redacted])
> GET http://127.0.0.1:4242/api/v2/usage (Authorization: Bearer [redacted])
>  GET not a request line
> HEAD http://127.0.0.1:4242/api/v2/users
orgctl: created 2 groups
> DELETE http://127.0.0.1:4242/api/v2/folders/f_1`

func TestPriceLog(t *testing.T) {
	c := ratebudget.Config{Points: 20, Window: time.Minute}
	b, err := priceLog(strings.NewReader(debugLog), c)
	if err != nil {
		t.Fatal(err)
	}
	// users 2, groups 5 twice (a retry is a request sent), permissions 10
	// (a Space's path), usage unlisted 10, folders 2 (a last line without
	// a newline)
	if b.Requests != 6 || b.Points != 34 || b.LeastSeconds != 60 {
		t.Errorf("priced %d requests, %d points, %vs; want 6, 34, 60s", b.Requests, b.Points, b.LeastSeconds)
	}
	var got []string
	for _, f := range b.Families {
		got = append(got, fmt.Sprintf("%s:%d:%d", f.Family, f.Requests, f.Points))
	}
	if want := "groups:2:10,permissions:1:10,usage:1:10,folders:1:2,users:1:2"; strings.Join(got, ",") != want {
		t.Errorf("by family %s, want %s", strings.Join(got, ","), want)
	}

	// budget.costs applies, as the ledger's pacing does
	c.Costs = map[string]int{"groups": 1, "usage": 0}
	if b, _ = priceLog(strings.NewReader(debugLog), c); b.Points != 2+1+1+10+0+2 {
		t.Errorf("with groups at 1 and usage free: %d points, want 16", b.Points)
	}
}
