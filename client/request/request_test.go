package request

import (
	"net/url"
	"strings"
	"testing"
)

func TestPathKeepsEachIDOneSegment(t *testing.T) {
	for _, id := range []string{"../x", "a?b", "a/b", "..", ".", "%2F", "a#b", "ünï cødé", "a;b=c", "x y+z"} {
		for _, p := range []string{Path("users", id), Expand("/users/{userId}", map[string]string{"userId": id})} {
			seg, ok := strings.CutPrefix(p, "/users/")
			if !ok || strings.ContainsAny(seg, "/?#") || seg == "." || seg == ".." {
				t.Errorf("id %q gives path %q, want /users/<one escaped segment>", id, p)
				continue
			}
			if got, err := url.PathUnescape(seg); err != nil || got != id {
				t.Errorf("segment %q of id %q unescapes to %q (%v)", seg, id, got, err)
			}
		}
	}
}

func TestExpandKeepsLiteralSegments(t *testing.T) {
	if got := Expand("/spaces/{spaceId}/users", map[string]string{"spaceId": "s 1"}); got != "/spaces/s%201/users" {
		t.Errorf("Expand = %q", got)
	}
	if got := Expand("/spaces/{spaceId}/users/{userId}", map[string]string{"spaceId": "s/1", "userId": "u 2"}); got != "/spaces/s%2F1/users/u%202" {
		t.Errorf("Expand = %q", got)
	}
	if got := Expand("/", nil); got != "/" {
		t.Errorf("Expand(/) = %q", got)
	}
}
