package kinds

import (
	"regexp"
	"testing"
)

// The hand-written id checks accept exactly what these patterns accept.
var idShapes = []struct {
	name string
	re   *regexp.Regexp
	fn   func(string) bool
}{
	{"uuid", regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`), isUUID},
	{"user id", regexp.MustCompile(`^user_[0-9a-zA-Z]+$`), isUserID},
	{"folder id", regexp.MustCompile(`^[a-z]+_[0-9]+$`), isFolderID},
	{"space id", regexp.MustCompile(`^(org_[0-9a-fA-F]{32}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$`), isSpaceID},
}

var idSamples = []string{
	"", "5a4d0004-0000-4000-8000-000000000001", "5A4D0004-0000-4000-8000-00000000000F", "5a4d0004-0000-4000-8000-00000000000g",
	"5a4d0004-0000-4000-8000-0000000000011", "5a4d00040000-4000-8000-000000000001-", "user_", "user_0000000000000000005a4d0000000004",
	"user_a-b", "User_1", "user_1\n", "app_12", "app_", "_12", "App_12", "app_1x", "app_12_3", "resource_007", "support", "ana@example.com",
	"org_df0f66ed6173458e85b339d240171487", "org_df0f66ed6173458e85b339d24017148", "org_df0f66ed6173458e85b339d2401714877", "org_df0f66ed6173458e85b339d24017148g", "org_", "eng",
}

func TestIDShapesMatchTheirPatterns(t *testing.T) {
	for _, s := range idShapes {
		for _, v := range idSamples {
			if got, want := s.fn(v), s.re.MatchString(v); got != want {
				t.Errorf("%s %q: %v, pattern says %v", s.name, v, got, want)
			}
		}
	}
}

func FuzzIDShapes(f *testing.F) {
	for _, v := range idSamples {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		for _, s := range idShapes {
			if got, want := s.fn(v), s.re.MatchString(v); got != want {
				t.Fatalf("%s %q: %v, pattern says %v", s.name, v, got, want)
			}
		}
	})
}

// What Mint makes is an id of its shape, of every kind of that shape,
// and no two pairs of numbers make the same id (but numbers, which carry
// n alone).
func TestMintedIDsAreOfTheirShape(t *testing.T) {
	seen := map[string]bool{}
	for _, shape := range []IDShape{UUIDs, Numbers, UserIDs, SpaceIDs} {
		for _, seed := range []uint32{0, 1, 0x5a4d, 0x5a4d0007, 1<<32 - 1} {
			for _, n := range []int{0, 1, 15, 1 << 20, 1<<40 - 1} {
				id := shape.Mint(seed, n)
				if !shape.Is(id) {
					t.Errorf("shape %d: Mint(%#x, %d) = %q, not of the shape", shape, seed, n, id)
				}
				if shape != Numbers && seen[id] {
					t.Errorf("shape %d: Mint(%#x, %d) = %q, minted before", shape, seed, n, id)
				}
				seen[id] = true
			}
		}
	}
	for _, typ := range []string{"app", "resource", "workflow", "file"} {
		if id := FolderID(typ, 12); !FolderIDs.Is(id) || id != typ+"_12" {
			t.Errorf("FolderID(%s, 12) = %q", typ, id)
		}
	}
	for _, k := range All() {
		if k.ID == NoID || k.ID == FolderIDs {
			continue
		}
		if id := k.ID.Mint(7, 3); !k.IsID(id) {
			t.Errorf("%s: minted %q, which it does not take for an id", k.Name, id)
		}
	}
}
