package cli

import (
	"bytes"
	"testing"

	"github.com/orgctl/orgctl/output"
)

func TestPrintPairs(t *testing.T) {
	pairs := []Pair{{"profile", "default"}, {"token source", "keyring"}, {"valid", "true"}}
	var out bytes.Buffer
	if err := PrintPairs(&output.IO{Out: &out, OutTTY: true}, pairs); err != nil {
		t.Fatal(err)
	}
	if want := "profile:       default\ntoken source:  keyring\nvalid:         true\n"; out.String() != want {
		t.Errorf("terminal:\n%s\nwant:\n%s", out.String(), want)
	}
	out.Reset()
	if err := PrintPairs(&output.IO{Out: &out}, pairs); err != nil {
		t.Fatal(err)
	}
	if want := "profile:\tdefault\ntoken source:\tkeyring\nvalid:\ttrue\n"; out.String() != want {
		t.Errorf("piped:\n%q\nwant:\n%q", out.String(), want)
	}
}
