package completions

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newCache(t *testing.T, ttl time.Duration) (*Cache, *clock) {
	clk := &clock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	return &Cache{Dir: filepath.Join(t.TempDir(), "completions"), TTL: ttl, Now: clk.now}, clk
}

func TestCacheRoundTripAndModes(t *testing.T) {
	c, clk := newCache(t, time.Minute)
	e := Entry{Origin: "https://acme.example.com", FetchedAt: clk.t, Items: []Item{{"id": "user_1", "email": "ada@example.com"}}}
	if err := c.Write("work", "users", e); err != nil {
		t.Fatal(err)
	}
	got := c.Read("work", "users")
	if got == nil || got.Origin != e.Origin || len(got.Items) != 1 || got.Items[0]["email"] != "ada@example.com" {
		t.Fatalf("Read = %+v, want %+v", got, e)
	}
	fi, err := os.Stat(filepath.Join(c.Dir, "work", "users.json"))
	if err != nil {
		t.Fatal(err)
	}
	if m := fi.Mode().Perm(); m != 0o600 {
		t.Errorf("cache file mode %o, want 600", m)
	}
	di, err := os.Stat(filepath.Join(c.Dir, "work"))
	if err != nil {
		t.Fatal(err)
	}
	if m := di.Mode().Perm(); m != 0o700 {
		t.Errorf("cache dir mode %o, want 700", m)
	}
	left, _ := os.ReadDir(filepath.Join(c.Dir, "work"))
	if len(left) != 1 {
		t.Errorf("files left in the profile dir: %v, want only users.json", left)
	}
	if c.Read("other", "users") != nil {
		t.Error("another profile sees this profile's list")
	}
}

func TestFreshness(t *testing.T) {
	c, clk := newCache(t, time.Minute)
	e := &Entry{FetchedAt: clk.t}
	if !c.Fresh(e) {
		t.Error("a list fetched now is not fresh")
	}
	clk.t = clk.t.Add(59 * time.Second)
	if !c.Fresh(e) {
		t.Error("a 59s old list is not fresh under a 60s TTL")
	}
	clk.t = clk.t.Add(time.Second)
	if c.Fresh(e) {
		t.Error("a 60s old list is fresh under a 60s TTL")
	}
	if c.Fresh(&Entry{FetchedAt: clk.t.Add(time.Hour)}) {
		t.Error("a list dated in the future (clock moved back) counts as fresh")
	}
	c.TTL = 0
	if c.Fresh(&Entry{FetchedAt: clk.t}) {
		t.Error("TTL 0 must mean never fresh")
	}
	if c.Fresh(nil) {
		t.Error("no entry is fresh")
	}
}

func TestUnsafeNamesAreRefused(t *testing.T) {
	c, clk := newCache(t, time.Minute)
	for _, bad := range [][2]string{{"../x", "users"}, {"work", "../../etc"}, {"", "users"}, {"..", "users"}, {"work", "a/b"}} {
		if err := c.Write(bad[0], bad[1], Entry{FetchedAt: clk.t}); err == nil {
			t.Errorf("Write(%q, %q) succeeded", bad[0], bad[1])
		}
		if c.Read(bad[0], bad[1]) != nil {
			t.Errorf("Read(%q, %q) returned an entry", bad[0], bad[1])
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(c.Dir), "x.json")); err == nil {
		t.Error("a profile name escaped the cache dir")
	}
}

func TestGarbledFileIsAMiss(t *testing.T) {
	c, _ := newCache(t, time.Minute)
	p := filepath.Join(c.Dir, "work", "users.json")
	os.MkdirAll(filepath.Dir(p), 0o700)
	os.WriteFile(p, []byte(`{"items": [`), 0o600)
	if e := c.Read("work", "users"); e != nil {
		t.Fatalf("garbled file read as %+v", e)
	}
}

func TestForgetRemovesTheListInEveryProfile(t *testing.T) {
	c, clk := newCache(t, time.Minute)
	for _, p := range []string{"default", "work", "staging"} {
		for _, l := range []string{"users", "groups"} {
			if err := c.Write(p, l, Entry{FetchedAt: clk.t, Items: []Item{{"id": l}}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := c.Forget("users"); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"default", "work", "staging"} {
		if c.Read(p, "users") != nil {
			t.Errorf("profile %s still has users after Forget", p)
		}
		if c.Read(p, "groups") == nil {
			t.Errorf("profile %s lost groups on Forget(users)", p)
		}
	}
	if err := c.Forget("users"); err != nil {
		t.Errorf("second Forget: %v", err)
	}
	empty := &Cache{Dir: filepath.Join(t.TempDir(), "never-created")}
	if err := empty.Forget("users"); err != nil {
		t.Errorf("Forget without a cache dir: %v", err)
	}
}
