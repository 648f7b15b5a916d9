package sandbox

import (
	"testing"
	"time"

	"github.com/orgctl/orgctl/ratebudget"
)

// The sandbox charges orgctl's one price list: a budget of a request's
// price takes it, and one point more leaves too little for a 2-point
// request after it, so the charge is neither less nor more than the price.
func TestBudgetChargesTheListPrice(t *testing.T) {
	for _, path := range []string{
		"/api/v2/users",
		"/api/v2/groups",
		"/api/v2/source_control/manifests", // tagged Release Management: a source_control path
		"/api/v2/role_permissions/roles",
		"/api/v2/no_such_family",       // no route: an unlisted family's price
		"/api/v2/users/user_x/no_such", // no route in a listed family: the same
	} {
		price := ratebudget.UnknownCost
		if rt, _ := matchRoute("GET", path[len("/api/v2"):]); rt != nil {
			price = ratebudget.ListPrice(path)
		}
		for _, points := range []int{price, price + 1} {
			clk := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
			s := New(Options{Now: clk.now, Points: points, Window: time.Minute, Block: time.Minute})
			tok := s.AdminToken()
			if r := send(t, s, tok, "GET", path, nil); r.status == 429 {
				t.Errorf("%s with a budget of %d: refused, so it costs more than %d", path, points, price)
			}
			if r := send(t, s, tok, "GET", "/api/v2/users", nil); r.status != 429 {
				t.Errorf("%s, then 2 points, with a budget of %d: %d, so it costs less than %d", path, points, r.status, price)
			}
		}
	}
}
