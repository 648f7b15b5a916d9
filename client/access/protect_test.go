package access

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/orgctl/orgctl/client"
)

// The owner is the one the tokens ending alike agree on; a token that
// names no owner says nothing, wherever it comes in the list.
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
		if got := TokenOwner(context.Background(), cl, token); got != tc.want {
			t.Errorf("%s: owner %q, want %q", tc.tokens, got, tc.want)
		}
		hs.Close()
	}
}
