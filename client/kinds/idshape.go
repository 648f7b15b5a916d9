package kinds

import (
	"fmt"
	"strconv"
	"strings"
)

// IDShape is how the API shapes the ids of a kind: the one rule both for
// telling an id from a name (Is) and for making ids of that shape (Mint).
type IDShape uint8

const (
	// NoID: the kind's one object has no id of its own (the org).
	NoID IDShape = iota
	// UUIDs, in the 8-4-4-4-12 hex form.
	UUIDs
	// Numbers, in decimal; JSON carries them as numbers.
	Numbers
	// UserIDs are "user_" and letters or digits.
	UserIDs
	// FolderIDs are the folder's type in lower case, "_" and a number
	// ("app_12").
	FolderIDs
	// SpaceIDs are "org_" and 32 hex digits; a UUID is taken too.
	SpaceIDs
)

// Is reports text that is an id of this shape. The shapes are checked by
// hand: a regexp compiled at package init would cost every command's
// start-up.
func (s IDShape) Is(text string) bool {
	switch s {
	case UUIDs:
		return isUUID(text)
	case Numbers:
		return isNumber(text)
	case UserIDs:
		return isUserID(text)
	case FolderIDs:
		return isFolderID(text)
	case SpaceIDs:
		return isSpaceID(text)
	}
	return false
}

// Mint is an id of this shape made of two numbers, seed and n, so that
// distinct pairs give distinct ids (n below 2^40): what a stand-in for the
// API (the sandbox) gives the objects it makes. A number carries n alone.
// Folder ids carry their type, which no number says: FolderID makes them;
// Mint panics on FolderIDs and NoID, which only a mistake in the code asks.
func (s IDShape) Mint(seed uint32, n int) string {
	switch s {
	case UUIDs:
		return fmt.Sprintf("%08x-0000-4000-8000-%012x", seed, n)
	case Numbers:
		return strconv.Itoa(n)
	case UserIDs:
		return fmt.Sprintf("user_%022x%010x", seed, n)
	case SpaceIDs:
		return fmt.Sprintf("org_%08x%024x", seed, n)
	}
	panic(fmt.Sprintf("kinds: no ids of shape %d to mint from numbers", s))
}

// FolderID is the n-th id of folders of type typ ("app", 3 -> "app_3").
func FolderID(typ string, n int) string { return typ + "_" + strconv.Itoa(n) }

func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !isHex(c) {
				return false
			}
		}
	}
	return true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// isUserID matches the API's user ids: "user_" and letters or digits.
func isUserID(s string) bool {
	rest, ok := strings.CutPrefix(s, "user_")
	if !ok || rest == "" {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if c := rest[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// isFolderID matches the API's folder ids: a lower-case type, "_", digits.
func isFolderID(s string) bool {
	typ, num, ok := strings.Cut(s, "_")
	if !ok || typ == "" || num == "" {
		return false
	}
	for i := 0; i < len(typ); i++ {
		if typ[i] < 'a' || typ[i] > 'z' {
			return false
		}
	}
	for i := 0; i < len(num); i++ {
		if num[i] < '0' || num[i] > '9' {
			return false
		}
	}
	return true
}

// isSpaceID matches the API's Space ids: "org_" and 32 hex digits. A
// UUID is taken too, as older Spaces and some recordings carry them.
func isSpaceID(s string) bool {
	rest, ok := strings.CutPrefix(s, "org_")
	if !ok {
		return isUUID(s)
	}
	if len(rest) != 32 {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if !isHex(rest[i]) {
			return false
		}
	}
	return true
}

func isNumber(s string) bool {
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil
}
