package cli

import (
	"strings"
	"testing"
)

func TestAccountTellsTokensApartWithoutHoldingThem(t *testing.T) {
	a := &Target{BaseURL: "https://org.example", Token: "retool_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}
	b := &Target{BaseURL: "https://org.example", Token: "retool_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"}
	c := &Target{BaseURL: "https://other.example", Token: a.Token}
	if a.Account() == b.Account() || a.Account() == c.Account() {
		t.Fatalf("two tokens or two URLs share an account: %s %s %s", a.Account(), b.Account(), c.Account())
	}
	if a.Account() != (&Target{BaseURL: a.BaseURL, Token: a.Token}).Account() {
		t.Fatal("the same token and URL gave two accounts")
	}
	if a.JobTarget() == b.JobTarget() {
		t.Fatal("jobs of two accounts share a target")
	}
	for _, s := range []string{a.Account(), a.JobTarget()} {
		if strings.Contains(s, "aaaaaaaa") || strings.Contains(s, "retool_") {
			t.Fatalf("%q holds the token", s)
		}
	}
}
