package cmd

import (
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
)

// The flags a profile's run must not see are dropped in every spelling,
// values too; the rest of the line stays in order.
func TestStripFlagsDropsEverySpelling(t *testing.T) {
	in := []string{"users", "list", "--profiles", "eng,ops", "-o", "table", "--jq=.x", "--columns", "email", "-ojson", "--quiet",
		"-qo", "yaml", "-qoyaml", "-no", "-qno", "-q", "--", "-o"}
	// -n stands for a flag of the command's that takes a value: "o" after
	// it is that value.
	takesValue := func(short string) bool { return short == "n" || short == "o" }
	got := stripFlags(in, map[string]bool{"profiles": true, "output": true, "o": true, "jq": true}, takesValue)
	want := []string{"users", "list", "--columns", "email", "--quiet", "-q", "-q", "-no", "-qno", "-q", "--", "-o"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// Each record gets "profile" first, from arrays, objects and a stream of
// several values (offboarding prints before and after).
func TestWithProfileLeadsEveryRecord(t *testing.T) {
	recs, err := withProfile("eng", []byte("[{\"id\":1},{}]\n{\"a\":\"b\"}\n[]\n\"x\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		if !json.Valid(r) {
			t.Fatalf("not JSON: %s", r)
		}
		got = append(got, string(r))
	}
	want := []string{`{"profile":"eng","id":1}`, `{"profile":"eng"}`, `{"profile":"eng","a":"b"}`, `{"profile":"eng","value":"x"}`}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	// a record that carries a profile of its own is credited to this one,
	// once: every spelling of the key goes, the rest keeps its order and bytes
	recs, err = withProfile("b", []byte(`[{"id":1,"profile":"a","n":1.50,"x":"<&>"},{"\u0070rofile":"a","profile":"c"}]`))
	if err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	for _, r := range recs {
		var m map[string]any
		if err := json.Unmarshal(r, &m); err != nil || m["profile"] != "b" {
			t.Fatalf("%s: profile %v (%v), want b", r, m["profile"], err)
		}
		got = append(got, string(r))
	}
	want = []string{`{"profile":"b","id":1,"n":1.50,"x":"<&>"}`, `{"profile":"b"}`}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	if _, err := withProfile("eng", []byte("[{")); err == nil || !strings.Contains(err.Error(), "unexpected output") {
		t.Fatalf("cut output: got %v", err)
	}
}

// The worst status wins by the contract's weight, not by its number; a
// user one Space lacks is nothing to do there, and not found only when no
// Space has them.
func TestVerdictIsTheWorstProfile(t *testing.T) {
	f := cli.NewFactory("test")
	var errs strings.Builder
	f.IO.Err = &errs
	run := func(how string, codes ...int) int {
		r := &profilesRun{f: f, how: how}
		var res []*profileResult
		for i, c := range codes {
			r.names = append(r.names, string(rune('a'+i)))
			res = append(res, &profileResult{code: c})
		}
		err := r.verdict(res)
		if err == nil {
			return 0
		}
		return err.(*cli.ExitError).Code
	}
	cases := []struct {
		how   string
		codes []int
		want  int
	}{
		{engine.ProfilesRead, []int{0, 0}, 0},
		{engine.ProfilesRead, []int{7, 0}, 7},
		{engine.ProfilesRead, []int{4, 1}, 1},
		{engine.ProfilesRead, []int{6, 1}, 6},
		{engine.ProfilesRead, []int{3, 5}, 5},
		{engine.ProfilesRead, []int{130, 6}, 130},
		{engine.ProfilesRead, []int{3, 0}, 0},
		{engine.ProfilesRead, []int{3, 3}, 3},
		{engine.ProfilesWrite, []int{3, 0}, 0},
		{engine.ProfilesWrite, []int{3, 3}, 3},
		{engine.ProfilesWrite, []int{3, 4}, 4},
	}
	for _, c := range cases {
		if got := run(c.how, c.codes...); got != c.want {
			t.Errorf("%s %v: exit %d, want %d", c.how, c.codes, got, c.want)
		}
	}
	if !strings.Contains(errs.String(), "orgctl: profile b failed (exit 1)") {
		t.Errorf("no line naming the failed profile:\n%s", errs.String())
	}
}

// Every line a profile's run writes comes out whole, led by the profile,
// however long (a dry run's request body can be one long line) and whether
// or not it ends in a newline.
func TestPrefixWriterWritesEveryLine(t *testing.T) {
	long := strings.Repeat("x", 100_000)
	var out strings.Builder
	w := &prefixWriter{w: &out, mu: &sync.Mutex{}, prefix: "[eng] "}
	for _, s := range []string{"one\n\ntw", "o\n" + long + "\nlast"} {
		if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write(%d bytes) = %d, %v", len(s), n, err)
		}
	}
	w.flush()
	want := "[eng] one\n[eng] \n[eng] two\n[eng] " + long + "\n[eng] last\n"
	if got := out.String(); got != want {
		t.Errorf("got %d bytes %.80q..., want %d bytes %.80q...", len(got), got, len(want), want)
	}
}
