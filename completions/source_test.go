package completions

import (
	"context"
	"errors"
	"reflect"
	"sync/atomic"
	"testing"
	"time"
)

const origin = "https://acme.example.com"

type fetcher struct {
	calls atomic.Int32
	items []Item
	err   error
}

func (f *fetcher) fetch(ctx context.Context) ([]Item, error) {
	f.calls.Add(1)
	return f.items, f.err
}

func TestFreshCacheAnswersWithoutFetching(t *testing.T) {
	c, clk := newCache(t, time.Minute)
	s := &Source{Cache: c, Profile: "work", Origin: origin}
	f := &fetcher{items: []Item{{"id": "user_1", "email": "ada@example.com"}}}
	first := s.Items(context.Background(), "users", f.fetch)
	clk.t = clk.t.Add(30 * time.Second)
	second := s.Items(context.Background(), "users", f.fetch)
	if n := f.calls.Load(); n != 1 {
		t.Fatalf("%d fetches for two completions within the TTL, want 1", n)
	}
	if !reflect.DeepEqual(first, f.items) || !reflect.DeepEqual(second, f.items) {
		t.Fatalf("items %v then %v, want %v", first, second, f.items)
	}
	clk.t = clk.t.Add(31 * time.Second)
	s.Items(context.Background(), "users", f.fetch)
	if n := f.calls.Load(); n != 2 {
		t.Fatalf("%d fetches after the TTL ran out, want 2", n)
	}
}

func TestFailedFetchFallsBackToTheStaleList(t *testing.T) {
	c, clk := newCache(t, time.Minute)
	s := &Source{Cache: c, Profile: "work", Origin: origin}
	old := []Item{{"id": "7", "name": "Analysts"}}
	c.Write("work", "groups", Entry{Origin: origin, FetchedAt: clk.t.Add(-time.Hour), Items: old})
	f := &fetcher{err: errors.New("rate budget: no room")}
	if got := s.Items(context.Background(), "groups", f.fetch); !reflect.DeepEqual(got, old) {
		t.Fatalf("got %v, want the stale %v", got, old)
	}
	if f.calls.Load() != 1 {
		t.Fatal("a stale list must not stop the fetch attempt")
	}
	if e := c.Read("work", "groups"); e == nil || !e.FetchedAt.Equal(clk.t.Add(-time.Hour)) {
		t.Fatalf("a failed fetch rewrote the cache: %+v", e)
	}
	// Nothing cached and the fetch fails: nothing, not an error.
	if got := s.Items(context.Background(), "users", f.fetch); got != nil {
		t.Fatalf("got %v with no cache and a failing fetch", got)
	}
}

func TestAnotherOriginsListIsNeverOffered(t *testing.T) {
	c, clk := newCache(t, time.Minute)
	c.Write("default", "users", Entry{Origin: "https://other.example.com", FetchedAt: clk.t, Items: []Item{{"id": "user_other"}}})
	s := &Source{Cache: c, Profile: "default", Origin: origin}
	f := &fetcher{err: errors.New("offline")}
	if got := s.Items(context.Background(), "users", f.fetch); got != nil {
		t.Fatalf("offered %v from another org", got)
	}
	if f.calls.Load() != 1 {
		t.Fatal("a list of another origin must be refetched, not trusted")
	}
}

func TestEmptyListIsCachedToo(t *testing.T) {
	c, _ := newCache(t, time.Minute)
	s := &Source{Cache: c, Profile: "work", Origin: origin}
	f := &fetcher{}
	s.Items(context.Background(), "spaces", f.fetch)
	s.Items(context.Background(), "spaces", f.fetch)
	if n := f.calls.Load(); n != 1 {
		t.Fatalf("an empty list was fetched %d times within the TTL, want 1", n)
	}
}

// A fetch stuck somewhere that ignores its context (a hanging keyring, say)
// must not hold the completion: the deadline answers from the stale list.
func TestDeadlineAbandonsAStuckFetch(t *testing.T) {
	c, clk := newCache(t, time.Minute)
	old := []Item{{"id": "user_1"}}
	c.Write("work", "users", Entry{Origin: origin, FetchedAt: clk.t.Add(-time.Hour), Items: old})
	s := &Source{Cache: c, Profile: "work", Origin: origin, Deadline: 20 * time.Millisecond}
	release := make(chan struct{})
	defer close(release)
	var sawDeadline atomic.Bool
	got := s.Items(context.Background(), "users", func(ctx context.Context) ([]Item, error) {
		if _, ok := ctx.Deadline(); ok {
			sawDeadline.Store(true)
		}
		<-release
		return []Item{{"id": "late"}}, nil
	})
	if !reflect.DeepEqual(got, old) {
		t.Fatalf("got %v, want the stale %v", got, old)
	}
	if !sawDeadline.Load() {
		t.Error("the fetch was not given a context with a deadline")
	}
}

func TestPanickingFetchIsSwallowed(t *testing.T) {
	c, _ := newCache(t, time.Minute)
	s := &Source{Cache: c, Profile: "work", Origin: origin}
	got := s.Items(context.Background(), "users", func(context.Context) ([]Item, error) { panic("boom") })
	if got != nil {
		t.Fatalf("got %v", got)
	}
}

func TestItemsFromJSONKeepsOnlyNamedScalars(t *testing.T) {
	data := []byte(`[
		{"id": 7, "name": "Analysts", "members": [{"id": "user_1"}], "secret": "s3cret"},
		{"id": 12345678901234567890, "name": "Big"},
		{"id": "user_a", "email": "ada@example.com", "active": false},
		{"other": 1}
	]`)
	got, err := ItemsFromJSON(data, []string{"id", "name", "email", "active", "members"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Item{
		{"id": "7", "name": "Analysts"},
		{"id": "12345678901234567890", "name": "Big"},
		{"id": "user_a", "email": "ada@example.com", "active": "false"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
	if _, err := ItemsFromJSON([]byte(`{"id": 1}`), []string{"id"}); err == nil {
		t.Error("an object instead of an array was accepted")
	}
}

func TestCandidates(t *testing.T) {
	items := []Item{
		{"id": "user_a", "email": "ada@example.com", "name": "Ada"},
		{"id": "user_b", "name": "Bob"},
		{"id": "user_c"},
		{"id": "user_a", "email": "dup@example.com"},
		{"id": "bad\tid", "email": "x"},
		{"email": "no-id@example.com"},
		{"id": "user_d", "email": "two\nlines"},
		{"id": "Sales team", "email": ""},
	}
	k := View{List: "users", Value: "id", Label: []string{"email", "name"}}
	got := k.Candidates(items, "")
	want := []string{"user_a\tada@example.com", "user_b\tBob", "user_c", "user_d\ttwo lines", "Sales team"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	if got := k.Candidates(items, "user_b"); !reflect.DeepEqual(got, []string{"user_b\tBob"}) {
		t.Fatalf("prefix user_b: %q", got)
	}
	if got := k.Candidates(items, "zzz"); got != nil {
		t.Fatalf("prefix zzz: %q", got)
	}
	if f := k.Fields(); !reflect.DeepEqual(f, []string{"id", "email", "name"}) {
		t.Fatalf("Fields = %v", f)
	}
}

// A completion's description reaches the terminal through the shell: a
// name's escape sequences are shown escaped, and a value holding them,
// which the shell would type, is not offered.
func TestCandidatesAreSafe(t *testing.T) {
	items := []Item{
		{"id": "user_a", "email": "a\x1b]52;c;aGk=\x07@example.com"},
		{"id": "ops\x1b[2J", "email": "b@example.com"},
		{"id": "user_c", "email": "\u202eevil"},
	}
	k := View{List: "users", Value: "id", Label: []string{"email"}}
	got := k.Candidates(items, "")
	want := []string{`user_a` + "\t" + `a\x1b]52;c;aGk=\x07@example.com`, "user_c\t" + `\u202eevil`}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}
