package orgcode

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/sandbox"
	"github.com/orgctl/orgctl/ratebudget"
)

// demoOrg is a client of the sandbox's demo org on loopback.
func demoOrg(t *testing.T) *client.Client {
	t.Helper()
	api := sandbox.New(sandbox.Options{Points: 1000000})
	hs := httptest.NewServer(api)
	t.Cleanup(hs.Close)
	cl, err := client.New(client.Options{BaseURL: hs.URL, Token: api.AdminToken()})
	if err != nil {
		t.Fatal(err)
	}
	return cl
}

// export writes the org as export does and returns the directory.
func export(t *testing.T, cl *client.Client) string {
	t.Helper()
	live, err := ReadLive(context.Background(), cl, Everything(), nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "org")
	if err := WriteDir(dir, live.Documents()); err != nil {
		t.Fatal(err)
	}
	return dir
}

// planDir plans the directory against the org as plan does.
func planDir(t *testing.T, cl *client.Client, dir string, prune bool, only ...string) (*Plan, *Live) {
	t.Helper()
	ctx := context.Background()
	files, err := ReadDir(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	r, err := ReadingFor(files, only)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckFiles(files, r); err != nil {
		t.Fatal(err)
	}
	live, err := ReadLive(ctx, cl, r, nil)
	if err != nil {
		t.Fatal(err)
	}
	return Diff(files, live, r, prune, ratebudget.DefaultConfig()), live
}

// applySteps sends the plan's steps one by one in their order, as a job of
// one worker would.
func applySteps(t *testing.T, cl *client.Client, p *Plan, live *Live) {
	t.Helper()
	for _, s := range p.Steps {
		req, err := s.Request(live)
		if err != nil {
			t.Fatalf("%s: %v", s.Describe(), err)
		}
		resp, err := cl.Do(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %s %s: %v", s.Describe(), req.Method, req.Path, err)
		}
		s.Done(live, resp)
	}
}

func put(t *testing.T, dir, name, body string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func replace(t *testing.T, dir, name, old, new string) {
	t.Helper()
	p := filepath.Join(dir, name)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s has no %q:\n%s", name, old, b)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func changeLines(p *Plan) []string {
	var out []string
	for _, c := range p.Changes {
		l := string(c.Action) + " " + c.Kind + " " + c.Key
		for _, fc := range c.Fields {
			l += " " + fc.Field
		}
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// Each edit of the exported files plans the changes it means, and once
// they are applied the org matches the files: a plan again has none.
func TestEditsPlanApplyAndSettle(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(t *testing.T, dir string)
		prune bool
		want  []string
	}{
		{name: "a user's name and a new attribute value",
			edit: func(t *testing.T, dir string) {
				replace(t, dir, "users/ana.viewer@sandbox.example.yaml", "first_name: Ana\n", "first_name: Anna\n")
				replace(t, dir, "users/ana.viewer@sandbox.example.yaml", "department: finance\n", "department: audit\n")
			},
			want: []string{"update users ana.viewer@sandbox.example first_name attributes.department"}},
		{name: "a new group with members and universal access",
			edit: func(t *testing.T, dir string) {
				put(t, dir, "groups/auditors.yaml", "name: auditors\nuniversal_app_access: use\nmembers:\n  ana.viewer@sandbox.example: admin\n  dev.lee@sandbox.example: member\n")
			},
			want: []string{"create groups auditors universal_app_access members.ana.viewer@sandbox.example members.dev.lee@sandbox.example"}},
		{name: "a member added and one removed, a role changed",
			edit: func(t *testing.T, dir string) {
				replace(t, dir, "groups/support.yaml", "  ana.viewer@sandbox.example: member\n", "  dev.lee@sandbox.example: member\n")
				replace(t, dir, "groups/editor.yaml", "  dev.lee@sandbox.example: admin\n", "  dev.lee@sandbox.example: member\n")
			},
			want: []string{"update groups editor members.dev.lee@sandbox.example",
				"update groups support members.ana.viewer@sandbox.example members.dev.lee@sandbox.example"}},
		{name: "a member written in another case than the org's, made an admin",
			edit: func(t *testing.T, dir string) {
				replace(t, dir, "groups/support.yaml", "  ana.viewer@sandbox.example: member\n", "  Ana.Viewer@Sandbox.example: admin\n")
			},
			want: []string{"update groups support members.Ana.Viewer@Sandbox.example"}},
		{name: "nested folders, parents first",
			edit: func(t *testing.T, dir string) {
				put(t, dir, "folders/app/Finance/Q1.yaml", "folder: app:/Finance/Q1\n")
				put(t, dir, "folders/app/New/Sub/Deeper.yaml", "folder: app:/New/Sub/Deeper\n")
				put(t, dir, "folders/app/New/Sub.yaml", "folder: app:/New/Sub\n")
				put(t, dir, "folders/app/New.yaml", "folder: app:/New\n")
			},
			want: []string{"create folders app:/Finance/Q1", "create folders app:/New", "create folders app:/New/Sub", "create folders app:/New/Sub/Deeper"}},
		{name: "a grant on a folder made in the same plan",
			edit: func(t *testing.T, dir string) {
				put(t, dir, "folders/app/Audit.yaml", "folder: app:/Audit\n")
				put(t, dir, "grants/group/app_admin_group.yaml", "subject: group:app_admin_group\nfolders:\n  app:/Audit: edit\n")
			},
			want: []string{"create folders app:/Audit", "create grants group:app_admin_group folders.app:/Audit"}},
		{name: "a new config var and environment",
			edit: func(t *testing.T, dir string) {
				put(t, dir, "environments/qa.yaml", "name: qa\ndescription: for testing\ncolor: '#00ff00'\n")
				put(t, dir, "config-vars/FEATURE_X.yaml", "name: FEATURE_X\ndescription: flag\nsecret: false\nvalues:\n  qa: \"on\"\n  production: \"off\"\n")
			},
			want: []string{"create config-vars FEATURE_X description secret values.production values.qa", "create environments qa description color"}},
		{name: "prune: a user in no file is disabled, a group deleted, the built-in ones left",
			edit: func(t *testing.T, dir string) {
				for _, f := range []string{"users/dev.lee@sandbox.example.yaml", "groups/app_admin_group.yaml", "groups/admin.yaml", "groups/All Users.yaml"} {
					if err := os.Remove(filepath.Join(dir, f)); err != nil {
						t.Fatal(err)
					}
				}
				// dev leaves the groups whose files name him, as a disabled user would
				for _, g := range []string{"groups/editor.yaml"} {
					replace(t, dir, g, "  dev.lee@sandbox.example: admin\n", "")
				}
			},
			prune: true,
			want:  []string{"delete groups app_admin_group", "delete users dev.lee@sandbox.example", "update groups editor members.dev.lee@sandbox.example"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cl := demoOrg(t)
			dir := export(t, cl)
			if p, _ := planDir(t, cl, dir, false); len(p.Changes) != 0 || !p.Empty() {
				t.Fatalf("a fresh export plans %v", changeLines(p))
			}
			tc.edit(t, dir)
			p, live := planDir(t, cl, dir, tc.prune)
			if got := changeLines(p); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			for i := 1; i < len(p.Steps); i++ {
				if p.Steps[i].Phase < p.Steps[i-1].Phase {
					t.Errorf("step %s (phase %d) after %s (phase %d)", p.Steps[i].Describe(), p.Steps[i].Phase, p.Steps[i-1].Describe(), p.Steps[i-1].Phase)
				}
			}
			applySteps(t, cl, p, live)
			again, _ := planDir(t, cl, dir, tc.prune)
			if len(again.Changes) != 0 {
				t.Errorf("after apply the plan still has:\n%s", strings.Join(changeLines(again), "\n"))
			}
		})
	}
}
