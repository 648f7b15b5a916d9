package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/output"
)

func factory(stdout, stderr io.Writer) *cli.Factory {
	f := cli.NewFactory("test")
	f.IO = &output.IO{In: strings.NewReader(""), Out: stdout, Err: stderr}
	return f
}

func execute(f *cli.Factory, args ...string) error {
	return clitest.Execute(f, NewCmd(f), args...)
}

func writeState(t *testing.T) string {
	t.Helper()
	p := cli.SandboxStatePath()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestResetAsksThroughThePrompterAndKeepsTheOrgOnNo(t *testing.T) {
	for _, yes := range []bool{false, true} {
		clitest.Isolate(t)
		state := writeState(t)
		var errb bytes.Buffer
		f := factory(io.Discard, &errb)
		f.IO.InTTY, f.IO.ErrTTY = true, true
		p := &clitest.Prompter{Yes: yes}
		f.Prompter = p
		err := execute(f, "reset")
		if len(p.Questions) != 1 || !strings.Contains(p.Questions[0], "Reset the --sandbox org?") || !strings.Contains(p.Questions[0], state) {
			t.Fatalf("asked %q", p.Questions)
		}
		_, statErr := os.Stat(state)
		switch {
		case yes && (err != nil || !os.IsNotExist(statErr)):
			t.Errorf("yes: %v; state file: %v", err, statErr)
		case !yes && (!errors.Is(err, cli.ErrCancelled) || statErr != nil):
			t.Errorf("no: %v, want cancelled; state file: %v", err, statErr)
		}
	}
}

func TestResetWithoutATerminalNeedsYes(t *testing.T) {
	clitest.Isolate(t)
	state := writeState(t)
	f := factory(io.Discard, io.Discard)
	f.IO.In = strings.NewReader("y\n") // an answer on a pipe is not a confirmation
	p := &clitest.Prompter{Yes: true}
	f.Prompter = p
	err := execute(f, "reset")
	var usage *cli.UsageError
	if !errors.As(err, &usage) || !strings.Contains(err.Error(), "--yes") || len(p.Questions) != 0 {
		t.Fatalf("no terminal: %v, asked %q; want a usage error naming --yes, nobody asked", err, p.Questions)
	}
	if _, err := os.Stat(state); err != nil {
		t.Fatalf("the state went without confirmation: %v", err)
	}
	if err := execute(factory(io.Discard, io.Discard), "reset", "--yes"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Errorf("--yes kept the state: %v", err)
	}
}

func TestServeRefusesBadFlagsBeforeListening(t *testing.T) {
	clitest.Isolate(t)
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"--addr", "8080"}, "invalid --addr"},
		{[]string{"--org", "big"}, "invalid --org"},
		{[]string{"--users", "-1"}, "invalid --users -1"},
		{[]string{"--folders", "-3"}, "invalid --folders -3"},
		{[]string{"--latency", "-1s"}, "invalid --latency"},
	} {
		var out bytes.Buffer
		err := execute(factory(&out, io.Discard), append([]string{"serve"}, tc.args...)...)
		var usage *cli.UsageError
		if !errors.As(err, &usage) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%q: %v, want a usage error saying %q", tc.args, err, tc.says)
		}
		if out.Len() != 0 {
			t.Errorf("%q: printed %q before refusing", tc.args, out.String())
		}
	}
}

// lines is a writer whose lines a test reads as they come.
type lines struct {
	mu sync.Mutex
	w  *io.PipeWriter
}

func (l *lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Serve prints the two exports first, answers on that address with that
// token, and saves the org to --state when it stops.
func TestServeExportsItsAddressAndTokenAndSavesTheState(t *testing.T) {
	clitest.Isolate(t)
	state := filepath.Join(t.TempDir(), "org.json")
	pr, pw := io.Pipe()
	f := factory(&lines{w: pw}, io.Discard)
	o := &serveOptions{f: f, addr: "127.0.0.1:0", state: state, orgName: "demo", points: 300}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serveRun(ctx, o) }()

	r := bufio.NewReader(pr)
	base, _ := r.ReadString('\n')
	token, _ := r.ReadString('\n')
	go io.Copy(io.Discard, r)
	base, ok1 := strings.CutPrefix(strings.TrimSpace(base), "export ORGCTL_BASE_URL=")
	token, ok2 := strings.CutPrefix(strings.TrimSpace(token), "export ORGCTL_TOKEN=")
	if !ok1 || !ok2 {
		cancel()
		t.Fatalf("first lines %q, %q: want the two exports", base, token)
	}
	req, _ := http.NewRequest(http.MethodGet, base+"/api/v2/users", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("GET /users with the exported token: %d", res.StatusCode)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}
	pw.Close()
	b, err := os.ReadFile(state)
	if err != nil || len(b) == 0 {
		t.Fatalf("--state not saved: %v", err)
	}
	if fi, _ := os.Stat(state); fi.Mode().Perm() != 0o600 {
		t.Errorf("state file mode %v, want 0600: it holds the admin token", fi.Mode().Perm())
	}
}

// On a terminal the question is asked on stderr and answered on stdin: only
// a yes resets; no and a bare Enter keep the org.
func TestResetAsksOnATerminal(t *testing.T) {
	for _, c := range []struct {
		answer string
		kept   bool
	}{{"n\n", true}, {"\n", true}, {"yes\n", false}} {
		clitest.Isolate(t)
		writeState(t)
		var errb bytes.Buffer
		f := factory(io.Discard, &errb)
		f.IO.In = strings.NewReader(c.answer)
		f.IO.InTTY, f.IO.ErrTTY = true, true
		err := execute(f, "reset")
		if !strings.Contains(errb.String(), "Reset the --sandbox org?") {
			t.Errorf("answer %q: no question on stderr: %q", c.answer, errb.String())
		}
		_, statErr := os.Stat(cli.SandboxStatePath())
		if kept := statErr == nil; kept != c.kept {
			t.Errorf("answer %q: state kept = %v, want %v", c.answer, kept, c.kept)
		}
		if c.kept && !errors.Is(err, cli.ErrCancelled) {
			t.Errorf("answer %q: err = %v, want ErrCancelled", c.answer, err)
		}
		if !c.kept && err != nil {
			t.Errorf("answer %q: %v", c.answer, err)
		}
	}
}
