package ratebudget

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestFamily(t *testing.T) {
	cases := map[string]string{
		"/users/u_1":                         "users",
		"/users":                             "users",
		"users/u_1":                          "users",
		"/role_permissions/roles":            "permissions",
		"/permissions/grant":                 "permissions",
		"/source_control/manifests/x":        "source_control",
		"/source_control/releases/apps/a1":   "source_control",
		"/access_requests":                   "access_requests",
		"/app_themes":                        "app_themes",
		"/apps?page_size=100&next_token=abc": "apps",
		"/folders/f_1#x":                     "folders",
		"/Folders/f_1":                       "Folders",
		"/api/v2/groups/7":                   "api",
		"https://org.example.com/api/v2/sso/config?x=1": "sso",
		"/usage/app_summary":                            "usage",
		"/":                                             "",
		"":                                              "",
		"?a=b":                                          "",
		"/api/v2":                                       "api",
		"https://org.example.com/api/v2":                "",
		"https://org.example.com/api/v2x/users":         "api",
		"/api":                                          "api",
		"/api/latest/users":                             "api",
		"//users//u_1":                                  "users",
		"/API/V2/Apps":                                  "API",
		"/api/v1/users":                                 "api",
		"/user-attributes":                              "user-attributes",
	}
	for in, want := range cases {
		if got := Family(in); got != want {
			t.Errorf("Family(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCostOfListedAndUnknownFamilies(t *testing.T) {
	cfg := DefaultConfig()
	cases := map[string]int{
		"/apps": 2, "/folders/f": 2, "/users/u_1": 2,
		"/access_requests/a": 5, "/app_themes": 5, "/environments/e": 5, "/groups": 5,
		"/resources/r": 5, "/resource_configurations": 5, "/source_control/manifests/m": 5,
		"/spaces": 5, "/sso/config": 5, "/user_attributes": 5, "/user_invites/i/user_attributes": 5,
		"/permissions/listObjects": 10, "/role_permissions/role_grants": 10,
		"/usage": 10, "/workflows": 10, "/info": 10, "/": 10, "/something_new": 10,
		// a path no family's, however close to one: what a server charges for it
		"/Users": 10, "/USERS/u_1": 10, "/api/v1/users": 10, "/api/v2/users": 10, "/user-attributes": 10, "/environment": 10,
	}
	for path, want := range cases {
		if got := cfg.Cost(path); got != want {
			t.Errorf("Cost(%q) = %d, want %d", path, got, want)
		}
	}
}

func TestCostOverrides(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Costs = map[string]int{"usage": 5, "apps": 3, "Access Request": 1, "role_permissions": 7, "spaces": 0}
	cases := map[string]int{
		"/usage/user_details": 5, "/apps": 3, "/access_requests": 1,
		"/permissions/grant": 7, "/role_permissions/roles": 7, "/spaces": 0,
		"/users": 2, "/workflows": 10,
	}
	for path, want := range cases {
		if got := cfg.Cost(path); got != want {
			t.Errorf("Cost(%q) with overrides = %d, want %d", path, got, want)
		}
	}
	table := cfg.CostTable()
	if table["usage"] != 5 || table["apps"] != 3 || table["access_requests"] != 1 || table["permissions"] != 7 || table["users"] != 2 {
		t.Errorf("CostTable = %v", table)
	}
	if len(table) != len(defaultCosts)+1 { // only "usage" is a family the list lacks
		t.Errorf("CostTable has %d families, want %d: %v", len(table), len(defaultCosts)+1, table)
	}
}

// TestCostAgainstSeed prices every path of the published spec by the table in
// the service description, so a family spelled differently in paths is caught.
func TestCostAgainstSeed(t *testing.T) {
	shared := sharedDir(t)
	seed, err := os.ReadFile(filepath.Join(shared, "seed", "000_58d745e9088d3fd3.txt"))
	if err != nil {
		t.Skipf("service description absent: %v", err)
	}
	spec, err := os.ReadFile(filepath.Join(shared, "api", "openapi.json"))
	if err != nil {
		t.Skipf("OpenAPI spec absent: %v", err)
	}
	var doc struct{ Paths map[string]json.RawMessage }
	if err := json.Unmarshal(spec, &doc); err != nil {
		t.Fatal(err)
	}
	limits := string(seed)[strings.Index(string(seed), "## 8. Limits"):]
	row := regexp.MustCompile(`(?m)^\|\s*([A-Za-z][^|]*?)\s*\|\s*(\d+)\s*\|\s*$`)
	want := map[string]int{} // path segment -> points
	for _, m := range row.FindAllStringSubmatch(limits, -1) {
		points, _ := strconv.Atoi(m[2])
		for _, name := range strings.Split(m[1], ",") {
			seg := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(name)), " ", "_")
			found := false
			for p := range doc.Paths {
				first := strings.Split(strings.TrimPrefix(p, "/"), "/")[0]
				if first == seg || first == seg+"s" || first == "role_"+seg {
					want[first] = points
					found = true
				}
			}
			if !found {
				t.Errorf("seed family %q (%d points) matches no path in the spec", name, points)
			}
		}
	}
	if len(want) < 15 {
		t.Fatalf("parsed only %d priced families from the seed: %v", len(want), want)
	}
	cfg := DefaultConfig()
	for p := range doc.Paths {
		first := strings.Split(strings.TrimPrefix(p, "/"), "/")[0]
		points, listed := want[first]
		if !listed {
			points = UnknownCost
		}
		if got := cfg.Cost(p); got != points {
			t.Errorf("Cost(%q) = %d, want %d (seed lists it: %v)", p, got, points, listed)
		}
	}
}

func TestKey(t *testing.T) {
	tokens := []string{"retool_01hq7m3k9v2x8c5b4n6z", "abcdefghijklmnop", "tok/../with spaces:and*stars"}
	safe := regexp.MustCompile(`^[a-z0-9._-]+$`)
	seen := map[string]bool{}
	for _, tok := range tokens {
		for _, host := range []string{"org.example.com", "https://Org.Example.com:8443/api", "user:" + tok + "@evil/host", ""} {
			k := Key(host, tok)
			if strings.Contains(k, tok) {
				t.Errorf("Key(%q, %q) = %q contains the token", host, tok, k)
			}
			if !safe.MatchString(k) || k == "." || k == ".." {
				t.Errorf("Key(%q, ...) = %q is not file-name safe", host, k)
			}
			if Key(host, tok) != k {
				t.Errorf("Key(%q, ...) is not stable", host)
			}
			seen[k] = true
		}
	}
	if len(seen) != len(tokens)*4 {
		t.Errorf("keys collide: %d distinct of %d", len(seen), len(tokens)*4)
	}
	if !strings.HasPrefix(Key("org.example.com", "x"), "org.example.com-") {
		t.Errorf("Key should start with the host: %q", Key("org.example.com", "x"))
	}
	if err := checkKey(Key("https://a.b:1", "t")); err != nil {
		t.Errorf("Open would reject a Key result: %v", err)
	}
}
