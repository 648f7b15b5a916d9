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
	c := demoClient(t)
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

// nowAt records the read's progress as each request goes out.
type nowAt struct {
	d     Doer
	prog  *ReadProgress
	total []int
	open  []bool
}

func (n *nowAt) note() {
	_, total, _, _ := n.prog.Now()
	n.total, n.open = append(n.total, total), append(n.open, n.prog.Open())
}

func (n *nowAt) Do(ctx context.Context, r client.Request) (*client.Response, error) {
	n.note()
	return n.d.Do(ctx, r)
}

func (n *nowAt) Pages(ctx context.Context, r client.Request, fn func(*client.Response) error) error {
	n.note()
	return n.d.Pages(ctx, r, fn)
}

// The read's total counts the access lists from its third request on:
// the folders and apps lists, read first, say how many follow, so the
// progress is the whole read's, not the lists' and then the access
// lists'. Until then the total is open. Only the direct-level reads an
// access list calls for are added later.
func TestReadProgressCountsTheAccessListsFromTheStart(t *testing.T) {
	c := demoClient(t)
	prog := &ReadProgress{Cost: ratebudget.DefaultConfig().Cost}
	n := &nowAt{d: c, prog: prog}
	l, err := ReadLive(context.Background(), n, Everything(), prog)
	if err != nil {
		t.Fatal(err)
	}
	if len(n.total) < 3 || !n.open[0] || n.open[2] {
		t.Fatalf("open before the folders and apps lists only: %v", n.open)
	}
	direct := 0
	for _, r := range l.Reads {
		if r.Path == "/permissions/listObjects" {
			direct++
		}
	}
	_, total, _, _ := prog.Now()
	if n.total[2] != total-direct {
		t.Errorf("at the third request the total is %d; the read sent %d, %d of them direct-level reads", n.total[2], total, direct)
	}
}

// demoClient is a client of a fresh demo org on loopback.
func demoClient(t *testing.T) *client.Client {
	t.Helper()
	api := sandbox.New(sandbox.Options{})
	hs := httptest.NewServer(api)
	t.Cleanup(hs.Close)
	c, err := client.New(client.Options{BaseURL: hs.URL, Token: api.AdminToken()})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
