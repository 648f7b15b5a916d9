package usage

import (
	"errors"
	"io/fs"
	"testing"
)

func TestErrorfKeepsTheCauseReachable(t *testing.T) {
	err := Errorf("--body: %w", fs.ErrNotExist)
	var ue *Error
	if !errors.As(err, &ue) || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Errorf(...%%w) = %#v: want a *Error wrapping fs.ErrNotExist", err)
	}
	if err.Error() != "--body: "+fs.ErrNotExist.Error() {
		t.Errorf("message %q", err.Error())
	}
}

func TestShownQuotesOnlyWhatIsHardToRead(t *testing.T) {
	for in, want := range map[string]string{"abc": "abc", "": `""`, "a b": `"a b"`, `a"b`: `"a\"b"`, "it's": `"it's"`, "x\ty": `"x\ty"`} {
		if got := Shown(in); got != want {
			t.Errorf("Shown(%q) = %s, want %s", in, got, want)
		}
	}
}
