package access

import (
	"reflect"
	"testing"
)

// What remains after offboarding is each row's sources that were not
// removed; a row with none left is gone.
func TestAfterKeepsOnlySourcesLeft(t *testing.T) {
	before := []Row{
		{"stage": "before", "object": "app:/Finance", "via": "direct; universal through All Users"},
		{"stage": "before", "object": "Lookup", "via": "universal through support"},
		{"stage": "before", "object": "app:/Ops", "via": "a group's or a folder's grant"},
	}
	if got := After(before, nil, true); len(got) != 0 {
		t.Fatalf("every group and grant removed: want nothing left, got %v", got)
	}
	support := &Group{Name: "support"}
	got := After(before, []*Group{support}, true)
	want := []Row{
		{"stage": "after", "object": "Lookup", "via": "universal through support"},
		{"stage": "after", "object": "app:/Ops", "via": "a group's or a folder's grant"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("support left:\n got %v\nwant %v", got, want)
	}
	got = After(before, nil, false)
	want = []Row{
		{"stage": "after", "object": "app:/Finance", "via": "direct"},
		{"stage": "after", "object": "app:/Ops", "via": "a group's or a folder's grant"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("direct grants kept:\n got %v\nwant %v", got, want)
	}
	if before[0]["stage"] != "before" {
		t.Fatal("After changed the rows it was given")
	}
}
