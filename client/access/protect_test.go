package access

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/orgctl/orgctl/client"
)

// The owner is the one the tokens ending alike agree on; a token that
// names no owner says nothing, wherever it comes in the list. When the
// list names none (or two), or cannot be read, the owner is unknown: an
// error, never an empty answer a caller could take for "not an admin's".
func TestTokenOwnerIsWhatTheMatchingTokensAgreeOn(t *testing.T) {
	const token = "tok_secret_abcd"
	for _, tc := range []struct {
		tokens string
		want   string
	}{
		{`[{"last4":"abcd","owner_legacy_id":5},{"last4":"wxyz","owner_legacy_id":9}]`, "5"},
		{`[{"last4":"abcd","owner_legacy_id":"5"},{"last4":"abcd","owner_legacy_id":5}]`, "5"},
		{`[{"last4":"abcd","owner_legacy_id":5},{"last4":"abcd","owner_legacy_id":9}]`, ""},
		{`[{"last4":"abcd","owner_legacy_id":null},{"last4":"abcd","owner_legacy_id":5}]`, "5"},
		{`[{"last4":"abcd","owner_legacy_id":5},{"last4":"abcd","owner_legacy_id":null}]`, "5"},
		{`[{"last4":"abcd"},{"last4":"abcd","owner_legacy_id":5}]`, "5"},
		{`[{"last4":"abcd","owner_legacy_id":null}]`, ""},
		{`[{"last4":"","owner_legacy_id":5}]`, ""},
	} {
		hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, `{"success":true,"data":%s}`, tc.tokens)
		}))
		cl, err := client.New(client.Options{BaseURL: hs.URL, Token: token})
		if err != nil {
			t.Fatal(err)
		}
		got, err := TokenOwner(context.Background(), cl, token)
		var unknown *OwnerUnknownError
		if got != tc.want || (tc.want == "") != errors.As(err, &unknown) {
			t.Errorf("%s: owner %q (%v), want %q", tc.tokens, got, err, tc.want)
		}
		hs.Close()
	}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprint(w, `{"success":false,"message":"internal error"}`)
	}))
	defer hs.Close()
	cl, err := client.New(client.Options{BaseURL: hs.URL, Token: token, RetryMax: 1, RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	var api *client.APIError
	if got, err := TokenOwner(context.Background(), cl, token); got != "" || !errors.As(err, &api) || api.StatusCode != 500 {
		t.Errorf("a 500: owner %q, error %v; want none, and the API's error kept", got, err)
	}
}
