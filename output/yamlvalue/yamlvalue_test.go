package yamlvalue

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	yaml "go.yaml.in/yaml/v3"
)

func parse(t testing.TB, src string) *yaml.Node {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		t.Fatal(err)
	}
	return &n
}

// Value agrees with yaml's own Decode into an any.
func TestValueMatchesDecode(t *testing.T) {
	for _, src := range []string{
		"a: 1\nb: [x, 2.5, true, null]\nc: {d: e}\n",
		"t: 2026-11-26\nq: '007'\nn: ~\nbig: 12345678901234567890\n",
		"base: &b {x: 1, y: 2}\nuse:\n  <<: *b\n  y: 3\n",
		"l: &l [1, 2]\nm: *l\n",
		"1: one\ntrue: yes\n",
		"- 1\n- two\n",
		"",
	} {
		n := parse(t, src)
		got, err := Value(n)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		var want any
		if err := n.Decode(&want); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) && !reflect.DeepEqual(got, want) {
			t.Errorf("%q:\n got %#v\nwant %#v", src, got, want)
		}
	}
}

func TestDuplicateKeysAreNamed(t *testing.T) {
	_, err := Value(parse(t, "a: 1\nb: 2\na: 3\n"))
	if err == nil || err.Error() != `line 3: mapping key "a" already defined at line 1` {
		t.Fatalf("got %v", err)
	}
}

func TestBillionLaughsStops(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	start := time.Now()
	if _, err := Value(parse(t, b.String())); !errors.Is(err, ErrAliases) {
		t.Fatalf("got %v, want ErrAliases", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Logf("took %v", d) // reported, not asserted: the machine may be loaded
	}
}

func TestReadFileCapsTheSize(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.yaml")
	os.WriteFile(p, []byte(strings.Repeat("k: v\n", 1000)), 0o600)
	var tl *TooLargeError
	if _, err := ReadFile(p, 1024); !errors.As(err, &tl) || tl.Path != p {
		t.Fatalf("got %v", err)
	}
	if b, err := ReadFile(p, 5000); err != nil || len(b) != 5000 {
		t.Fatalf("at the cap: %d bytes, %v", len(b), err)
	}
}
