package bulk

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/orgctl/orgctl/client"
)

// waitingPacer has no budget to give: every Acquire waits until its
// context ends.
type waitingPacer struct{}

func (waitingPacer) Acquire(ctx context.Context, _ string) (client.Ticket, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

func (waitingPacer) Blocked(time.Duration) error { return nil }

// A row's requests are detached from its context, but their waits for
// budget end with it: a stopped row sends nothing more.
func TestDetachEndsWaitsButNotRequests(t *testing.T) {
	row, stop := context.WithCancelCause(context.Background())
	ctx := Detach(row)
	p := &Pacer{Next: waitingPacer{}, Stop: context.Background()}
	done := make(chan error, 1)
	go func() {
		_, err := p.Acquire(ctx, "/users")
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("the wait ended before the row stopped: %v", err)
	case <-time.After(20 * time.Millisecond):
	}
	journal := errors.New("the journal cannot be written")
	stop(journal)
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("the wait ended without an error")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the wait went on after the row stopped")
	}
	if ctx.Err() != nil {
		t.Errorf("the detached context ended with the row's (%v): a request in flight would lose its answer", ctx.Err())
	}
}

// The job's Stop ends a wait whether or not the request was detached.
func TestPacerStopEndsAWait(t *testing.T) {
	stop, cancel := context.WithCancel(context.Background())
	p := &Pacer{Next: waitingPacer{}, Stop: stop}
	cancel()
	if _, err := p.Acquire(context.Background(), "/users"); err == nil {
		t.Fatal("the wait did not end with Stop")
	}
}
