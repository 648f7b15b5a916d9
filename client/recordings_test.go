package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/url"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/sandbox/sandboxtest"
	"github.com/orgctl/orgctl/output"
)

// TestRecordedPayloadsSurviveByteForByte feeds every recorded answer of the
// users, folders and groups cassettes through the client and -o json
// (the JSON printer).
func TestRecordedPayloadsSurviveByteForByte(t *testing.T) {
	cassettes := sandboxtest.LoadCassettes(t, "TestAccUser", "TestAccFolder", "TestAccGroup")
	checked := 0
	for _, c := range cassettes {
		name := c.Name
		for i, in := range c.Interactions {
			u, err := url.Parse(in.Request.URL)
			if err != nil {
				t.Fatalf("%s #%d: %v", name, i, err)
			}
			path := strings.TrimPrefix(u.EscapedPath(), "/api/v2")
			base := sandboxtest.Replay(t, in.Response.Code, in.Response.Body)
			cl, err := client.New(client.Options{BaseURL: base, Token: "t", RetryMax: -1})
			if err != nil {
				t.Fatal(err)
			}
			resp, err := cl.Do(context.Background(), client.Request{Method: in.Request.Method, Path: path, Query: u.Query()})
			if in.Response.Code >= 400 {
				var env struct{ Message string }
				json.Unmarshal([]byte(in.Response.Body), &env)
				var ae *client.APIError
				if !errors.As(err, &ae) || ae.StatusCode != in.Response.Code || ae.Message != env.Message {
					t.Errorf("%s #%d: err = %v, want APIError %d %q", name, i, err, in.Response.Code, env.Message)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s #%d %s %s: %v", name, i, in.Request.Method, path, err)
				continue
			}
			var env struct {
				Data json.RawMessage `json:"data"`
			}
			if strings.TrimSpace(in.Response.Body) != "" {
				if err := json.Unmarshal([]byte(in.Response.Body), &env); err != nil {
					t.Fatalf("%s #%d: recorded body is not JSON: %v", name, i, err)
				}
			}
			want := env.Data
			if string(want) == "null" {
				want = nil
			}
			if !bytes.Equal(resp.Data, want) {
				t.Errorf("%s #%d %s %s: Data differs from the recorded data\n got %s\nwant %s", name, i, in.Request.Method, path, resp.Data, want)
				continue
			}
			var out bytes.Buffer
			p := &output.Printer{IO: &output.IO{Out: &out, Err: io.Discard}, Opts: output.Options{Format: "json"}}
			if err := p.Print(resp.Data, nil); err != nil {
				t.Fatal(err)
			}
			wantOut := ""
			if len(want) > 0 {
				wantOut = string(want) + "\n"
			}
			if out.String() != wantOut {
				t.Errorf("%s #%d: -o json printed\n%s\nwant\n%s", name, i, out.String(), wantOut)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Errorf("only %d recorded answers checked", checked)
	}
}
