package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/cmd/cli/clitest"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/cmd/families/familytest"
)

// A follow-up that fails after the main request succeeded says that the
// main request went through, carries the follow-up's own error, and prints
// nothing on stdout.
func TestSendFollowUpFailure(t *testing.T) {
	f, out, _, api := clitest.SandboxFactory(t, "json")
	e, err := engine.New(f)
	if err != nil {
		t.Fatal(err)
	}
	op := familytest.Op(t, "users", "create")
	c := familytest.Build(t, op, familytest.Input("users create", nil, "email", "x@example.com", "first-name", "X", "last-name", "Y"))
	c.Then = []opdef.FollowUp{{What: "PATCH a user that is not there", Build: func(json.RawMessage) (client.Request, error) {
		return client.Request{Method: http.MethodPatch, Path: "/users/user_missing", Body: map[string]any{"operations": []any{}}}, nil
	}}}
	err = e.Run(context.Background(), c, engine.RunOptions{})
	var apiErr *client.APIError
	if err == nil || !strings.Contains(err.Error(), "POST /users succeeded, but the follow-up request (PATCH a user that is not there) failed") ||
		!errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusNotFound {
		t.Errorf("follow-up failure: %v", err)
	}
	if sent := clitest.Sent(api); len(sent) != 2 || !strings.HasPrefix(sent[0], "POST ") || !strings.HasPrefix(sent[1], "PATCH ") {
		t.Errorf("sent %v", sent)
	}
	if out.Len() != 0 {
		t.Errorf("printed %q after a failed follow-up", out.String())
	}
}
