package cmd

import (
	"bytes"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client/spec"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/output"
)

// specOperation is one published operation and the scope its description
// names, as client/spec holds them.
type specOperation struct {
	Method, Path, Scope string
}

// loadSpecOperations are every operation of the published description, as
// client/spec was generated from it, plus POST /apps, which the service
// serves without publishing it.
func loadSpecOperations(t *testing.T) []specOperation {
	t.Helper()
	var ops []specOperation
	for _, op := range spec.Operations() {
		ops = append(ops, specOperation{Method: op.Method, Path: op.Path, Scope: op.ScopeName})
	}
	if len(ops) == 0 {
		t.Fatal("client/spec holds no operations")
	}
	ops = append(ops, specOperation{Method: "POST", Path: "/apps", Scope: "Apps > Write"})
	sort.Slice(ops, func(i, j int) bool { return ops[i].Path+ops[i].Method < ops[j].Path+ops[j].Method })
	return ops
}

// endpointKey makes "/access_tokens/:accessTokenId" and
// "/access_tokens/{id}/" the same endpoint.
func endpointKey(method, path string) string { return spec.Key(method, path) }

// newTestRoot builds the whole command tree on buffers, with no network.
func newTestRoot(t *testing.T) *cobra.Command {
	t.Helper()
	var out, errb bytes.Buffer
	f := &cli.Factory{IO: &output.IO{In: strings.NewReader(""), Out: &out, Err: &errb}, VersionOf: func() string { return "test" }, Sources: settings.NewSources()}
	return newRoot(f, allFamilies)
}

// apiCommands returns every command that declares an endpoint.
func apiCommands(root *cobra.Command) []*cobra.Command {
	var out []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Annotations["method"] != "" {
			out = append(out, c)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return out
}

func TestEveryOperationHasACommand(t *testing.T) {
	ops := loadSpecOperations(t)
	cmds := apiCommands(newTestRoot(t))
	have := map[string][]*cobra.Command{}
	for _, c := range cmds {
		k := endpointKey(c.Annotations["method"], c.Annotations["path"])
		have[k] = append(have[k], c)
	}
	var missing []string
	for _, op := range ops {
		if len(have[endpointKey(op.Method, op.Path)]) == 0 {
			missing = append(missing, op.Method+" "+op.Path)
		}
	}
	covered := len(ops) - len(missing)
	t.Logf("%d of %d operations have a command (%d published + POST /apps)", covered, len(ops), len(ops)-1)
	if len(missing) > 0 {
		t.Errorf("%d operation(s) have no command:\n  %s", len(missing), strings.Join(missing, "\n  "))
	}
	published := map[string]bool{}
	for _, op := range ops {
		published[endpointKey(op.Method, op.Path)] = true
	}
	for _, c := range cmds {
		// the operations 4.0 added are checked by TestHelpNamesEveryOperationOf40
		if !published[endpointKey(c.Annotations["method"], c.Annotations["path"])] && spec.Find(c.Annotations["method"], c.Annotations["path"]) == nil {
			t.Errorf("%s declares %s %s, which the API does not publish", c.CommandPath(), c.Annotations["method"], c.Annotations["path"])
		}
	}
}

// eitherScope is the other scope the description accepts where it says
// "must have either the A or B scope" and client/spec keeps A.
var eitherScope = map[string]string{
	"User Attributes > Write": "Users > Write",
	"User Attributes > Read":  "Users > Read",
}

func TestCommandScopesMatchTheSpec(t *testing.T) {
	ops := loadSpecOperations(t)
	scope := map[string]string{}
	for _, op := range ops {
		if op.Scope != "" {
			scope[endpointKey(op.Method, op.Path)] = op.Scope
		}
	}
	checked := 0
	for _, c := range apiCommands(newTestRoot(t)) {
		want, named := scope[endpointKey(c.Annotations["method"], c.Annotations["path"])]
		if !named {
			continue
		}
		checked++
		// Where the description accepts either of two scopes (a user's
		// attributes: "Users > Write" or "User Attributes > Write"),
		// client/spec keeps one, and declaring the other is right too.
		got := c.Annotations["scope"]
		pair := eitherScope[want] == got || eitherScope[got] == want
		if got != want && !(pair && strings.HasPrefix(c.Annotations["path"], "/user_attributes")) && eitherScope[want] != got {
			t.Errorf("%s: scope %q, the API docs say %q", c.CommandPath(), got, want)
		}
	}
	if checked == 0 {
		t.Fatal("no command matched an operation that names a scope")
	}
	t.Logf("%d commands' scopes checked against the operation descriptions", checked)
}

func TestEveryAPICommandHasAnExample(t *testing.T) {
	root := newTestRoot(t)
	cmds := apiCommands(root)
	if len(cmds) == 0 {
		t.Fatal("no API commands found")
	}
	for _, c := range append(cmds, findCommand(t, root, "api")) {
		if strings.TrimSpace(c.Example) == "" {
			t.Errorf("%s has no Example", c.CommandPath())
		}
		if !c.Hidden && !strings.Contains(c.Example, "orgctl "+strings.TrimPrefix(c.CommandPath(), root.Name()+" ")) {
			t.Errorf("%s: no example runs it: %q", c.CommandPath(), c.Example)
		}
	}
}

func findCommand(t *testing.T, root *cobra.Command, args ...string) *cobra.Command {
	t.Helper()
	c, rest, err := root.Find(args)
	if err != nil || len(rest) > 0 || c == root {
		t.Fatalf("command %q not found: %v", strings.Join(args, " "), err)
	}
	return c
}

func TestEndpointKeyMatchesSpecSpellings(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"/access_tokens/:accessTokenId", "/access_tokens/{accessTokenId}"},
		{"/organization/", "/organization"},
		{"/users/{userId}", "/users/{id}"},
	} {
		if endpointKey("GET", tc.a) != endpointKey("GET", tc.b) {
			t.Errorf("%s and %s should be the same endpoint", tc.a, tc.b)
		}
	}
	if endpointKey("GET", "/users/{id}") == endpointKey("GET", "/users/reset2fa") {
		t.Error("a literal segment must not match a parameter")
	}
	if endpointKey("GET", "/users") == endpointKey("POST", "/users") {
		t.Error("methods must differ")
	}
}
