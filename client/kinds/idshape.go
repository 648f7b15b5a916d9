package kinds

import (
	"strconv"
	"strings"
)

// The id shapes are checked by hand: a regexp compiled at package init
// would cost every command's start-up.

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
