package orgcode

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/ratebudget"
)

// The read's progress ends on the totals the plan reports: every request
// the read sends (the lists, the access lists, the direct-level reads an
// access list calls for) is expected before it is sent.
func TestReadProgressTotalsAreThePlansRead(t *testing.T) {
	api := sandbox.New(sandbox.Options{})
	hs := httptest.NewServer(api)
	t.Cleanup(hs.Close)
	c, err := client.New(client.Options{BaseURL: hs.URL, Token: api.AdminToken()})
	if err != nil {
		t.Fatal(err)
	}
	bc := ratebudget.DefaultConfig()
	prog := &ReadProgress{Cost: bc.Cost}
	l, err := ReadLive(context.Background(), c, Everything(), prog)
	if err != nil {
		t.Fatal(err)
	}
	p := &Plan{}
	p.price(l, bc)
	done, total, points, pointsTotal := prog.Now()
	if done != p.ReadRequests || total != p.ReadRequests || points != p.ReadPoints || pointsTotal != p.ReadPoints {
		t.Errorf("progress %d of %d requests, %d of %d points; the plan says %d requests, %d points",
			done, total, points, pointsTotal, p.ReadRequests, p.ReadPoints)
	}
	// no request went out that the progress had not counted on (the demo
	// org's lists are one page each)
	if prog.unexpected > 0 {
		t.Errorf("%d requests were sent before the progress expected them", prog.unexpected)
	}
	if p.ReadRequests < 20 {
		t.Errorf("only %d reads: the demo org's access lists were not read", p.ReadRequests)
	}
}
