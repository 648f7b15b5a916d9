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
	for _, tc := range []struct {
		path  string
		price int
	}{
		{"/api/v2/users", 2},
		{"/api/v2/groups", 5},
		{"/api/v2/source_control/manifests", 5}, // tagged Release Management: a source_control path
		{"/api/v2/role_permissions/roles", 10},
		{"/api/v2/no_such_family", ratebudget.UnknownCost},       // no route: an unlisted family's price
		{"/api/v2/users/user_x/no_such", ratebudget.UnknownCost}, // no route in a listed family: the same
	} {
		path, price := tc.path, tc.price
		if rt, _ := matchRoute("GET", path[len("/api/v2"):]); rt != nil && ratebudget.ListPrice(rt.Path) != price {
			t.Errorf("%s: the list prices it at %d, want %d", path, ratebudget.ListPrice(rt.Path), price)
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
