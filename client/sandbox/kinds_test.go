package sandbox

import (
	"net/url"
	"testing"

	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/output/jsonscan"
)

// The sandbox serves every kind the registry knows as the registry says
// the API does: listed at its List path, each object with an id of the
// kind's shape and its natural key, read one at a time at its Get path,
// and found by key with its Filter. A sandbox that minted ids of another
// shape, or listed a kind elsewhere, would test orgctl against an API it
// does not talk to.
func TestSandboxServesEveryKindAsTheRegistrySays(t *testing.T) {
	s := New(Options{})
	tok := s.AdminToken()
	for _, k := range kinds.All() {
		r := send(t, s, tok, "GET", "/api/v2"+k.List, nil)
		if r.status != 200 {
			t.Errorf("%s: GET %s answered %d %q", k.Name, k.List, r.status, message(r))
			continue
		}
		if k.Singleton {
			if _, ok := r.body["data"].(map[string]any); !ok {
				t.Errorf("%s: GET %s gave no object: %v", k.Name, k.List, r.body["data"])
			}
			continue
		}
		data, ok := r.body["data"].([]any)
		if !ok {
			t.Errorf("%s: GET %s gave no list: %v", k.Name, k.List, r.body["data"])
			continue
		}
		var all []map[string]any
		for _, it := range data {
			o, _ := it.(map[string]any)
			all = append(all, o)
		}
		if len(all) == 0 {
			continue // nothing seeded to check the shapes on
		}
		for i, key := range k.Keys(all) {
			id := jsonscan.AsText(all[i]["id"])
			if k.ID != kinds.NoID && !k.IsID(id) {
				t.Errorf("%s: id %q is not of the kind's shape", k.Name, id)
			}
			if k.Named() && key == "" {
				t.Errorf("%s %s: no natural key", k.Name, id)
			}
		}
		first := all[0]
		id := jsonscan.AsText(first["id"])
		if k.Get != "" {
			path := "/api/v2" + k.Get[:len(k.Get)-len("{id}")] + url.PathEscape(id)
			if r := send(t, s, tok, "GET", path, nil); r.status != 200 {
				t.Errorf("%s: GET %s answered %d %q", k.Name, path, r.status, message(r))
			}
		}
		if k.Filter != "" {
			key := k.KeyOfObject(first, all)
			r := send(t, s, tok, "GET", "/api/v2"+k.List+"?"+url.Values{k.Filter: {key}}.Encode(), nil)
			got, _ := r.body["data"].([]any)
			for _, it := range got {
				o, _ := it.(map[string]any)
				if k.FoldKey(k.KeyOfObject(o, nil)) != k.FoldKey(key) {
					t.Errorf("%s: %s=%q also lists %q", k.Name, k.Filter, key, k.KeyOfObject(o, nil))
				}
			}
			if len(got) == 0 {
				t.Errorf("%s: %s=%q lists nothing", k.Name, k.Filter, key)
			}
		}
	}
}

// An object created later has an id of its kind's shape too, not only the
// seeded ones: the sandbox mints ids apart from its seed.
func TestCreatedObjectsHaveIDsOfTheirKindsShape(t *testing.T) {
	s := New(Options{})
	tok := s.AdminToken()
	created := 0
	for _, k := range kinds.All() {
		body, ok := sweepBodies["POST "+k.List]
		if !ok || k.ID == kinds.NoID {
			continue
		}
		r := send(t, s, tok, "POST", "/api/v2"+k.List, body)
		o, _ := r.body["data"].(map[string]any)
		if _, bare := r.body["id"]; bare { // roles answer without the data envelope
			o = r.body
		}
		if r.status/100 != 2 || o == nil {
			t.Errorf("%s: POST %s answered %d %v", k.Name, k.List, r.status, r.body)
			continue
		}
		created++
		if id := jsonscan.AsText(o["id"]); !k.IsID(id) {
			t.Errorf("%s: created with id %q, not of the kind's shape", k.Name, id)
		}
	}
	if created < 5 {
		t.Errorf("only %d kinds created: the sweep's bodies no longer cover them", created)
	}
}

// The sandbox's ids keep their form: test scripts and recordings name
// them. The shape comes from the registry's kind where a collection lists
// one, and only a collection the registry lacks declares its own.
func TestMintedIDsKeepTheirForm(t *testing.T) {
	for _, tc := range []struct {
		path string
		n    int
		want any
	}{
		{"/users", 4, "user_0000000000000000005a4d0000000004"},
		{"/groups", 3, float64(3)},
		{"/user_invites", 2, float64(2)},
		{"/access_requests", 1, float64(1)},
		{"/spaces", 1, "org_5a4d0004000000000000000000000001"},
		{"/apps", 77, "5a4d0006-0000-4000-8000-00000000004d"},
		{"/role_permissions/role_grants", 2, "5a4d000a-0000-4000-8000-000000000002"},
		{"/access_tokens", 1, "5a4d0009-0000-4000-8000-000000000001"},
	} {
		if got := collectionAt(tc.path).id(tc.n); got != tc.want {
			t.Errorf("%s #%d: id %#v, want %#v", tc.path, tc.n, got, tc.want)
		}
	}
	if got := uuidFor(22, 1); got != "5a4d0016-0000-4000-8000-000000000001" {
		t.Errorf("revision id %q", got)
	}
	seeds := map[uint32]string{}
	for _, c := range collections {
		if other, dup := seeds[c.seed]; dup {
			t.Errorf("%s and %s share seed %d", c.path, other, c.seed)
		}
		seeds[c.seed] = c.path
		if k, ok := listedKind(c.path); ok && c.shape != kinds.NoID {
			t.Errorf("%s: lists the registry's %s, yet declares an id shape of its own", c.path, k.Name)
		}
	}
}
