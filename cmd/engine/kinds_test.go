package engine_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/client/sandbox/sandboxtest"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/cmd/families"
	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/completions"
	"github.com/orgctl/orgctl/ratebudget"
)

func TestDeclaredCompletionKindsExist(t *testing.T) {
	var check func(path string, g engine.Group)
	check = func(path string, g engine.Group) {
		path += " " + g.Name
		for _, op := range g.Ops {
			for i, k := range op.Args.Complete {
				if k != "" && k != opdef.NoCompletion {
					if _, ok := engine.CompletionKind(k); !ok {
						t.Errorf("%s %s: ArgsComplete[%d] names unknown kind %q", path, op.Use, i, k)
					}
				}
			}
			if len(op.Args.Complete) > len(op.Args.Params) {
				t.Errorf("%s %s: ArgsComplete has more entries than Args", path, op.Use)
			}
			for _, fd := range op.Fields {
				if fd.Complete != "" && fd.Complete != opdef.NoCompletion {
					if _, ok := engine.CompletionKind(fd.Complete); !ok {
						t.Errorf("%s %s --%s: Complete names unknown kind %q", path, op.Use, fd.Flag, fd.Complete)
					}
				}
				if fd.KindBy != nil {
					checkKindBy(t, fmt.Sprintf("%s %s --%s", path, op.Use, fd.Flag), op, *fd.KindBy)
				}
			}
			for i, kb := range op.Args.KindBy {
				if i >= len(op.Args.Params) {
					t.Errorf("%s %s: ArgsKindBy[%d] has no argument", path, op.Use, i)
				}
				checkKindBy(t, fmt.Sprintf("%s %s argument %d", path, op.Use, i+1), op, kb)
			}
		}
		for _, sub := range g.Groups {
			check(path, sub)
		}
	}
	for _, g := range families.All() {
		check("orgctl", g)
	}
	for _, fk := range engine.CommandFlagKinds {
		if _, ok := engine.CompletionKind(fk.Kind); !ok {
			t.Errorf("commandFlagKinds: %s --%s names unknown kind %q", fk.Path, fk.Flag, fk.Kind)
		}
	}
}

// checkKindBy checks that a KindBy reads an input the op has and picks
// known kinds that orgctl resolves.
func checkKindBy(t *testing.T, what string, op opdef.Op, kb opdef.KindBy) {
	t.Helper()
	if kb.Flag != "" {
		found := false
		for _, fd := range op.Fields {
			found = found || fd.Flag == kb.Flag
		}
		if !found {
			t.Errorf("%s: KindBy reads --%s, which the op does not have", what, kb.Flag)
		}
	} else if kb.Arg >= len(op.Args.Params) {
		t.Errorf("%s: KindBy reads argument %d, which the op does not have", what, kb.Arg+1)
	}
	for v, k := range kb.Kinds() {
		if _, ok := engine.CompletionKind(k); !ok {
			t.Errorf("%s: KindBy maps %q to unknown kind %q", what, v, k)
		}
		if _, ok := engine.ResolveKind(k); !ok {
			t.Errorf("%s: KindBy maps %q to %q, whose names orgctl does not look up", what, v, k)
		}
	}
}

// Each kind's list is a published GET endpoint without required parameters
// whose items carry the fields the kind shows.
func TestCompletionKindsMatchTheSpec(t *testing.T) {
	b, err := os.ReadFile(sandboxtest.SharedFile(t, "api", "openapi.json"))
	if err != nil {
		t.Skipf("the published OpenAPI description is not available (%v)", err)
	}
	var doc struct {
		Paths map[string]map[string]struct {
			Parameters []struct {
				Required bool `json:"required"`
				Name     string
			} `json:"parameters"`
			Responses map[string]struct {
				Content map[string]struct {
					Schema struct {
						Properties struct {
							Data struct {
								Items struct {
									Properties map[string]json.RawMessage `json:"properties"`
								} `json:"items"`
							} `json:"data"`
						} `json:"properties"`
					} `json:"schema"`
				} `json:"content"`
			} `json:"responses"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for _, v := range kinds.Views() {
		name := v.Name
		k, _ := engine.CompletionKind(name)
		get, ok := doc.Paths[k.Path]["get"]
		if !ok {
			t.Errorf("kind %s: no GET %s in the spec", name, k.Path)
			continue
		}
		for _, p := range get.Parameters {
			if p.Required {
				t.Errorf("kind %s: GET %s requires %s", name, k.Path, p.Name)
			}
		}
		props := get.Responses["200"].Content["application/json"].Schema.Properties.Data.Items.Properties
		for _, fl := range k.View.Fields() {
			if _, ok := props[fl]; !ok {
				t.Errorf("kind %s: items of GET %s have no field %q", name, k.Path, fl)
			}
		}
	}
}

// A change orgctl makes is told by the budget family of its path
// (Factory.OnChange); every completion list of a kind listed from that
// path, and its names list, is forgotten with it.
func TestAChangeForgetsTheCompletionListsOfItsFamily(t *testing.T) {
	clitest.Isolate(t)
	cache := &completions.Cache{Dir: filepath.Join(settings.CacheDir(), "completions"), TTL: time.Hour}
	for _, v := range kinds.Views() {
		k, _ := engine.CompletionKind(v.Name)
		lists := []string{k.View.List, "names-" + ratebudget.Family(kinds.Of(v.Kind).List)}
		for _, l := range lists {
			if err := cache.Write("default", l, completions.Entry{FetchedAt: time.Now(), Items: []completions.Item{{"id": "1"}}}); err != nil {
				t.Fatal(err)
			}
		}
		engine.ForgetCompletions(ratebudget.Family(k.Path))
		for _, l := range lists {
			if cache.Read("default", l) != nil {
				t.Errorf("view %s: a change to %s leaves the cached list %q", v.Name, k.Path, l)
			}
		}
	}
}
