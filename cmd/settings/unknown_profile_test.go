package settings

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestUnknownProfileIsTypedWithTheKnownNames(t *testing.T) {
	err := unknownProfile("stagng", map[string]any{"profiles": map[string]any{"staging": map[string]any{}, "prod": map[string]any{}}})
	var up *UnknownProfileError
	if !errors.As(err, &up) || up.Name != "stagng" || !slices.Equal(up.Names, []string{"prod", "staging"}) {
		t.Fatalf("unknownProfile = %#v, want an UnknownProfileError naming prod and staging", err)
	}
	var se *Error
	if !errors.As(err, &se) {
		t.Fatal("not a settings error: its exit status would change")
	}
	if !strings.Contains(err.Error(), "did you mean staging?") {
		t.Errorf("message %q lacks the did-you-mean", err.Error())
	}
}
