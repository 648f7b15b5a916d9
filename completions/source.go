package completions

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/orgctl/orgctl/output/safetext"
)

// DefaultDeadline bounds a whole completion that has to fetch: past it the
// shell gets the stale list or nothing.
const DefaultDeadline = time.Second

// settleGrace is how long a fetch past its deadline gets to wind down.
const settleGrace = 100 * time.Millisecond

// Fetch lists the objects of one list. It must send at most one request,
// without retries and without waiting for the rate budget, and honour ctx.
type Fetch func(ctx context.Context) ([]Item, error)

// Source answers completions for one profile and API origin.
type Source struct {
	Cache   *Cache
	Profile string
	Origin  string
	// Deadline bounds a fetch, including whatever Fetch does before its
	// request (zero: DefaultDeadline).
	Deadline time.Duration
}

// Items returns the list: from a fresh cache without asking anything, else
// from one fetch (stored for later keystrokes), else from the stale cache,
// else nil. It never fails: a completion has nowhere to show an error.
func (s *Source) Items(ctx context.Context, list string, fetch Fetch) []Item {
	cached := s.Cache.Read(s.Profile, list)
	if cached != nil && cached.Origin != s.Origin {
		cached = nil
	}
	if s.Cache.Fresh(cached) {
		return cached.Items
	}
	stale := func() []Item {
		if cached == nil {
			return nil
		}
		return cached.Items
	}
	d := s.Deadline
	if d <= 0 {
		d = DefaultDeadline
	}
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	type result struct {
		items []Item
		err   error
	}
	// The fetch runs aside so that even a Fetch that ignores ctx (a keyring
	// that hangs, a stuck lock) cannot hold the shell past the deadline.
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{err: fmt.Errorf("completions: fetch panicked: %v", r)}
			}
		}()
		items, err := fetch(ctx)
		done <- result{items, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			return stale()
		}
		if r.items == nil {
			r.items = []Item{}
		}
		_ = s.Cache.Write(s.Profile, list, Entry{Origin: s.Origin, FetchedAt: s.Cache.now(), Items: r.items})
		return r.items
	case <-ctx.Done():
		// A fetch that honours ctx ends now; letting it settle its budget
		// reservation beats leaving it pending when the process exits.
		select {
		case <-done:
		case <-time.After(settleGrace):
		}
		return stale()
	}
}

// ItemsFromJSON reduces a JSON array of objects to the named top-level
// fields, as strings (numbers as written, so group id 7 stays "7"). Objects
// without the fields, and fields that are not strings, numbers or booleans,
// are left out.
func ItemsFromJSON(data []byte, fields []string) ([]Item, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var recs []map[string]any
	if err := dec.Decode(&recs); err != nil {
		return nil, fmt.Errorf("completions: expected a JSON array of objects: %w", err)
	}
	items := make([]Item, 0, len(recs))
	for _, r := range recs {
		it := Item{}
		for _, f := range fields {
			switch v := r[f].(type) {
			case string:
				it[f] = v
			case json.Number:
				it[f] = v.String()
			case bool:
				it[f] = fmt.Sprint(v)
			}
		}
		if len(it) > 0 {
			items = append(items, it)
		}
	}
	return items, nil
}

// View is one way to complete objects of a list: which field is typed and
// which one labels it.
type View struct {
	// List names the cached list (and the budget family it is fetched from).
	List string
	// Value is the field the user types: "id", "name".
	Value string
	// Label lists fields to show beside the value; the first non-empty wins.
	Label []string
}

// Fields are the item fields the kind reads.
func (k View) Fields() []string { return append([]string{k.Value}, k.Label...) }

// Candidates formats the items whose value starts with prefix as cobra
// completions: "value\tlabel", or "value" when no label is known. Items
// without a value, values with a tab or newline (which the line-based
// protocol cannot carry) and values holding control or invisible format
// characters (the shell would type them) are skipped; labels are shown as
// safetext shows them; repeated values appear once. Spaces
// are fine: the shell scripts escape them.
func (k View) Candidates(items []Item, prefix string) []string {
	var out []string
	seen := map[string]bool{}
	for _, it := range items {
		v := it[k.Value]
		if v == "" || seen[v] || !strings.HasPrefix(v, prefix) {
			continue
		}
		if strings.ContainsAny(v, "\t\n\r") || safetext.Safe(v) != v {
			continue // a value the shell would insert with its escape sequences
		}
		seen[v] = true
		label := ""
		for _, l := range k.Label {
			if s := safetext.Safe(strings.TrimSpace(safetext.OneLine(it[l]))); s != "" {
				label = s
				break
			}
		}
		if label == "" {
			out = append(out, v)
		} else {
			out = append(out, v+"\t"+label)
		}
	}
	return out
}
