package engine_test

import (
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/families/familytest"
)

// typing is a Prompter at a terminal that types one answer to every
// question asking for text, and records the questions.
type typing struct {
	answer    string
	questions []string
}

func (p *typing) Confirm(q string, _ bool) (bool, error) { return false, errors.New("asked y/N: " + q) }
func (p *typing) Input(q string) (string, error) {
	p.questions = append(p.questions, q)
	return p.answer, nil
}
func (p *typing) Password(string) (string, error) { return "", errors.New("not asked") }

// An org-wide action asks for the name the declaration reads of the org
// (the org's host, a Space's name through the paced client), and sends
// only when that name is typed.
func TestTypeToConfirmReadsTheNameOfTheOrg(t *testing.T) {
	for _, tc := range []struct {
		path []string
		args func(t *testing.T, f *cli.Factory) (args []string, name string)
		sent string
	}{
		{[]string{"org", "invalidate-sessions"}, func(t *testing.T, _ *cli.Factory) ([]string, string) {
			u, err := url.Parse(os.Getenv("ORGCTL_BASE_URL"))
			if err != nil {
				t.Fatal(err)
			}
			return nil, u.Host
		}, "POST /api/v2/organization/invalidate_sessions"},
		{[]string{"spaces", "delete"}, func(t *testing.T, f *cli.Factory) ([]string, string) {
			cl, err := f.Client()
			if err != nil {
				t.Fatal(err)
			}
			resp, err := cl.Do(t.Context(), client.Request{Method: "POST", Path: "/spaces", Scope: "Spaces > Write",
				Body: map[string]any{"name": "staging", "domain": "staging.example.com"}})
			if err != nil {
				t.Fatal(err)
			}
			var s struct{ ID string }
			if err := json.Unmarshal(resp.Data, &s); err != nil || s.ID == "" {
				t.Fatalf("created space: %s (%v)", resp.Data, err)
			}
			return []string{s.ID}, "staging"
		}, "DELETE /api/v2/spaces/"},
	} {
		for _, right := range []bool{false, true} {
			f, _, _, api := clitest.SandboxFactory(t, "json")
			f.IO.InTTY, f.IO.ErrTTY = true, true
			args, name := tc.args(t, f)
			p := &typing{answer: name}
			if !right {
				p.answer = "not-" + name
			}
			f.Prompter = p
			op := familytest.Op(t, tc.path...)
			err := clitest.Execute(f, engine.Command(op, f), args...)
			what := strings.Join(tc.path, " ")
			if len(p.questions) != 1 || !strings.HasSuffix(p.questions[0], "Type "+name+" to confirm: ") {
				t.Errorf("%s: asked %q, want one question ending in Type %s to confirm", what, p.questions, name)
			}
			sent := slices.ContainsFunc(clitest.Sent(api), func(r string) bool { return strings.HasPrefix(r, tc.sent) })
			switch {
			case right && (err != nil || !sent):
				t.Errorf("%s with the name typed: err %v, sent %v; want it sent", what, err, clitest.Sent(api))
			case !right && (!errors.Is(err, cli.ErrCancelled) || sent):
				t.Errorf("%s with another name typed: err %v, sent %v; want it cancelled, nothing sent", what, err, clitest.Sent(api))
			}
		}
	}
}
