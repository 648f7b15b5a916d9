package output

import (
	"bytes"
	"testing"
	"time"
)

func TestEntriesKeepOrderAndShowNestingAndTimes(t *testing.T) {
	now := time.Date(2026, 1, 10, 12, 0, 0, 0, time.UTC)
	data := []byte(`{"id":"user_1","legacy_id":7,"created_at":"2026-01-07T11:00:00Z","last_active":null,"metadata":{},
		"tags":["a","b"],"groups":[{"id":2,"name":"editor"},{"x":1}],"opts":{"team":"ops","n":1.50,"when":"soon"},"empty":""}`)
	entries, err := Entries(data, now)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	(&Printer{IO: &IO{Out: &out, OutTTY: true}}).PrintEntries(entries)
	want := `id           user_1
legacy_id    7
created_at   3 days ago
last_active  -
metadata     (none)
tags         a, b
groups
  -  editor (2)
  -  x=1
opts
  team  ops
  n     1.50
  when  soon
empty        ""
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	if e, err := Entries([]byte(`[1,2]`), now); err != nil || e != nil {
		t.Errorf("a list is no key/value view: %v %v", e, err)
	}
}
