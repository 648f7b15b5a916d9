package opdef_test

import (
	"encoding/json"
	"errors"
	"net/url"
	"reflect"
	"testing"

	"github.com/orgctl/orgctl/client/request"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
)

// Bind puts each id where its stand-in is, wherever the build and the
// op's Shape put it, and leaves the rest of the call as built.
func TestBindPutsIDsWhereTheStandInsAre(t *testing.T) {
	errAnswer := errors.New("no id in the answer")
	c := &opdef.Call{
		Op: opdef.Alone(&opdef.Op{Method: "POST", Path: "/groups/{groupId}/members", Args: opdef.Args{Params: []string{"groupId"}}}),
		Req: opdef.Req{
			Params: map[string]string{"groupId": "900000001"},
			Query:  url.Values{"user_ids": {"user_2resolve,user_3resolve"}, "q": {"900000001x"}},
			Body: map[string]any{
				"members": []any{map[string]any{"id": "user_2resolve"}, map[string]any{"id": "user_kept"}},
				"group":   json.Number("900000001"),
				"count":   int64(900000001),
				"float":   float64(900000001),
				"name":    "user_2resolve and more",
			},
			RawBody: json.RawMessage(`{"id":"user_3resolve","n":900000001}`),
		},
		Given:    opdef.Given{Local: map[string]any{"user": []any{"user_2resolve", "user_3resolve"}}},
		Reads:    []request.Request{{Method: "GET", Path: "/groups/900000001"}},
		Warnings: []string{"group 900000001 is large"},
		Then: []opdef.FollowUp{{What: "add to 900000001", JoinKey: "900000001", Build: func(answer json.RawMessage) (request.Request, error) {
			if len(answer) == 0 {
				return request.Request{}, errAnswer
			}
			return request.Request{Method: "POST", Path: "/groups/900000001/members", Body: map[string]any{"id": "user_2resolve"}}, nil
		}}},
	}
	c.Bind(map[string]string{"900000001": "7", "user_2resolve": "user_ada", "user_3resolve": "user a/b"})

	if got := c.Request().Path; got != "/groups/7/members" {
		t.Errorf("path %q", got)
	}
	if got := c.Req.Query["user_ids"][0]; got != "user_ada,user a/b" {
		t.Errorf("comma-separated query %q", got)
	}
	if got := c.Req.Query["q"][0]; got != "900000001x" {
		t.Errorf("a text that only holds a stand-in changed: %q", got)
	}
	wantBody := map[string]any{
		"members": []any{map[string]any{"id": "user_ada"}, map[string]any{"id": "user_kept"}},
		"group":   json.Number("7"),
		"count":   int64(7),
		"float":   float64(7),
		"name":    "user_2resolve and more",
	}
	if !reflect.DeepEqual(c.Req.Body, wantBody) {
		t.Errorf("body %#v\nwant %#v", c.Req.Body, wantBody)
	}
	if got := c.Given.Local["user"]; !reflect.DeepEqual(got, []any{"user_ada", "user a/b"}) {
		t.Errorf("local %#v", got)
	}
	if got := string(c.Req.RawBody); got != `{"id":"user a/b","n":900000001}` {
		t.Errorf("raw body %s", got)
	}
	if got := c.Reads[0].Path; got != "/groups/7" {
		t.Errorf("read path %q", got)
	}
	if got := c.Warnings[0]; got != "group 7 is large" {
		t.Errorf("warning %q", got)
	}
	then := c.Then[0]
	if then.What != "add to 7" || then.JoinKey != "7" {
		t.Errorf("follow-up %q, join key %q", then.What, then.JoinKey)
	}
	r, err := then.Build(json.RawMessage(`{}`))
	if err != nil || r.Path != "/groups/7/members" || !reflect.DeepEqual(r.Body, map[string]any{"id": "user_ada"}) {
		t.Errorf("follow-up built %s %#v (%v)", r.Path, r.Body, err)
	}
	if _, err := then.Build(nil); !errors.Is(err, errAnswer) {
		t.Errorf("follow-up error %v, want it to wrap the build's own", err)
	}
}

// Stand-ins in a path are escaped as ids are: an id cannot add a segment.
func TestBindEscapesPathSegments(t *testing.T) {
	c := &opdef.Call{Op: opdef.Alone(&opdef.Op{Method: "GET", Path: "/users/{userId}", Args: opdef.Args{Params: []string{"userId"}}}),
		Req:   opdef.Req{Params: map[string]string{"userId": "user_1resolve"}},
		Reads: []request.Request{{Method: "GET", Path: "/users/user_1resolve/groups"}}}
	c.Bind(map[string]string{"user_1resolve": "../x"})
	if got := c.Request().Path; got != "/users/..%2Fx" {
		t.Errorf("path %q", got)
	}
	if got := c.Reads[0].Path; got != "/users/..%2Fx/groups" {
		t.Errorf("read path %q", got)
	}
}
