package families_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/sandbox/sandboxtest"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/families/familytest"
)

// TestRecordedFoldersThroughTheCommand runs `folders list` against the
// recorded answer, which holds folder_type "file" (outside the published
// enum): it must be shown, not dropped or rejected.
func TestRecordedFoldersThroughTheCommand(t *testing.T) {
	cassettes := sandboxtest.LoadCassettes(t, "TestAccFoldersDataSource")
	var body string
	for _, c := range cassettes {
		for _, in := range c.Interactions {
			if in.Request.Method == http.MethodGet && strings.HasSuffix(in.Request.URL, "/api/v2/folders") && strings.Contains(in.Response.Body, `"folder_type":"file"`) {
				body = in.Response.Body
			}
		}
	}
	if body == "" {
		t.Skip("no recorded folder list with a file folder")
	}
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	json.Unmarshal([]byte(body), &env)

	clitest.Isolate(t)
	base := sandboxtest.Replay(t, 200, body)
	t.Setenv("ORGCTL_BASE_URL", base)
	t.Setenv("ORGCTL_TOKEN", "tok_recorded")

	f, tio := clitest.Factory(t, &clitest.Keyring{}, "")
	if err := familytest.Run(f, "folders", "list", "-o", "json"); err != nil {
		t.Fatal(err)
	}
	if tio.Out.String() != string(env.Data)+"\n" {
		t.Errorf("-o json differs from the recorded data:\n%s", tio.Out.String())
	}

	f, tio = clitest.Factory(t, &clitest.Keyring{}, "")
	if err := familytest.Run(f, "folders", "list"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tio.Out.String(), "file_6\troot\tfile\t\ttrue\n") {
		t.Errorf("piped table lacks the file folder:\n%s", tio.Out.String())
	}

	f, tio = clitest.Factory(t, &clitest.Keyring{}, "")
	f.IO.OutTTY = true
	if err := familytest.Run(f, "folders", "list"); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, l := range strings.Split(tio.Out.String(), "\n") {
		if fs := strings.Fields(l); len(fs) >= 3 && fs[0] == "file_6" && fs[2] == "file" {
			found = true
		}
	}
	if !found || !strings.HasPrefix(tio.Out.String(), "ID") {
		t.Errorf("terminal table lacks the file folder:\n%s", tio.Out.String())
	}
}
