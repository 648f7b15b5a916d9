package access

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/access"
	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
)

// A read whose answer cannot be written beside the journal is not done:
// journaled as done, a resumed report would lack its rows.
func TestReportReadWhoseAnswerIsNotKeptFails(t *testing.T) {
	f, _, _, _ := clitest.SandboxFactory(t, "csv")
	ctx := context.Background()
	conn, err := f.JobConnection(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "reads.jsonl")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	readOnly, err := os.Open(path) // every Write fails
	if err != nil {
		t.Fatal(err)
	}
	defer readOnly.Close()
	j := &readJob{command: "test", conn: conn, f: f, answers: map[int]json.RawMessage{}, out: readOnly,
		reqs: []access.Read{{Key: "users", Req: client.Request{Method: http.MethodGet, Path: "/users", Scope: "Users > Read"}}}}
	res := j.Apply(ctx, bulk.Row{N: 1, Line: 1}, nil)
	if res.Outcome != bulk.Failed {
		t.Fatalf("answer not written: outcome %q (%s), want %q", res.Outcome, res.Message, bulk.Failed)
	}
}
