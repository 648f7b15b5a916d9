package access

import (
	"encoding/json"
	"fmt"
	"github.com/orgctl/orgctl/client/kinds"
	"strings"

	"github.com/mattn/go-runewidth"
	"github.com/orgctl/orgctl/output/jsonscan"
)

// Namer names what an id stands for: kind "groups", "folders" or "users".
type Namer interface {
	Name(kind, id string) string
}

// Entry is one subject of an access list as the API describes it.
type Entry struct {
	Subject struct {
		ID   json.RawMessage `json:"id"`
		Type string          `json:"type"`
	} `json:"subject"`
	Sources struct {
		Direct    bool `json:"direct"`
		Universal bool `json:"universal"`
		Groups    []struct {
			ID json.RawMessage `json:"id"`
		} `json:"groups"`
		Inherited *struct {
			ID   json.RawMessage `json:"id"`
			Type string          `json:"type"`
		} `json:"inherited"`
	} `json:"sources"`
	AccessLevel string `json:"accessLevel"`
}

// AccessList is the answer of GET /permissions/accessList/{type}/{id}: its
// entries by subject type ("group", "user", "userInvite").
type AccessList map[string][]Entry

// DecodeAccessList reads an access list answer's data.
func DecodeAccessList(data []byte) (AccessList, error) {
	var al AccessList
	if err := json.Unmarshal(data, &al); err != nil {
		return nil, err
	}
	return al, nil
}

// SubjectID is the entry's subject id as text, whether sent as a string or
// a number.
func (e Entry) SubjectID() string { return jsonscan.AsText(e.Subject.ID) }

// Inherits reports whether the access comes (also) from a folder above
// the object.
func (e Entry) Inherits() bool {
	return e.Sources.Inherited != nil && len(e.Sources.Inherited.ID) > 0
}

// Via says where one subject's access comes from: direct; universal
// (a group's own universal access level); universal through GROUP or member
// of GROUP (a user's groups); inherited from FOLDER PATH.
func Via(e Entry, groupEntries map[string]Entry, n Namer) string {
	return via(e, groupEntries, n, nil)
}

// via is Via; with universal (a group's universal level for the object's
// type, "" when unknown), a group reaches the object "universal through"
// when that level alone gives what the group has there, the rule a review
// read by listObjects follows (it cannot see a group's own grants), so
// that both ways of reading a review word the same access alike.
func via(e Entry, groupEntries map[string]Entry, n Namer, universal func(groupID string) string) string {
	var via []string
	s := e.Sources
	if s.Direct {
		via = append(via, "direct")
	}
	if s.Universal && len(s.Groups) == 0 {
		via = append(via, "universal")
	}
	for _, g := range s.Groups {
		id := jsonscan.AsText(g.ID)
		ge, ok := groupEntries[id]
		byUniversal := ok && ge.Sources.Universal && !ge.Sources.Direct && ge.Sources.Inherited == nil
		if universal != nil && ok {
			byUniversal = universalGives(universal(id), ge.AccessLevel)
		}
		if byUniversal {
			via = append(via, "universal through "+n.Name("groups", id))
		} else {
			via = append(via, "member of "+n.Name("groups", id))
		}
	}
	if e.Inherits() {
		from := jsonscan.AsText(s.Inherited.ID)
		if s.Inherited.Type == "folder" || s.Inherited.Type == "" {
			from = n.Name("folders", from)
		}
		via = append(via, "inherited from "+from)
	}
	if len(via) == 0 {
		return "-"
	}
	return strings.Join(via, "; ")
}

// OwnGrant: a user reached through a grant of their own, not only through
// groups; without --expand those are the users an access list shows.
func OwnGrant(e Entry) bool {
	return e.Sources.Direct || e.Inherits()
}

// ShortVia shortens a VIA (as Via writes it) to width display columns by
// its structure, never mid-word: each way first names its source in
// brackets ("universal through All Users" -> "universal (All Users)",
// "member of support" -> "member (support)", "inherited from app:/Finance"
// -> "inherited (app:/Finance)"); then universal access, which every
// member of the group shares, is said once without its groups, while the
// ways that set this subject apart keep theirs ("member (support);
// universal", then "group support; universal", "folder app:/Finance");
// then only the ways ("universal"), the same way said once; then the first
// ways that fit and how many more ("direct; universal +2"). What still does
// not fit is the caller's to cut.
func ShortVia(s string, width int) string {
	if viaWidth(s) <= width {
		return s
	}
	parts := strings.Split(s, "; ")
	bracketed := make([]string, len(parts))
	var named, compact, bare []string
	seen, seenNamed := map[string]bool{}, map[string]bool{}
	for i, p := range parts {
		way, source := splitVia(p)
		bracketed[i] = p
		if source != "" {
			bracketed[i] = way + " (" + source + ")"
		}
		switch {
		case source != "" && way != "universal":
			named = append(named, bracketed[i])
			compact = append(compact, map[string]string{"member": "group ", "inherited": "folder "}[way]+source)
		case !seenNamed[way]:
			seenNamed[way] = true
			named = append(named, way)
			compact = append(compact, way)
		}
		if !seen[way] {
			seen[way] = true
			bare = append(bare, way)
		}
	}
	for _, t := range []string{strings.Join(bracketed, "; "), strings.Join(named, "; "), strings.Join(compact, "; "), strings.Join(bare, "; ")} {
		if viaWidth(t) <= width {
			return t
		}
	}
	for n := len(bare) - 1; n >= 1; n-- {
		if t := strings.Join(bare[:n], "; ") + fmt.Sprintf(" +%d", len(bare)-n); viaWidth(t) <= width {
			return t
		}
	}
	return bare[0]
}

// viaWords are the ways Via names, each with the words before its source.
var viaWords = []struct{ way, lead string }{
	{"universal", "universal through "}, {"member", "member of "}, {"inherited", "inherited from "},
}

// splitVia splits one way of a VIA into the way and its source.
func splitVia(p string) (way, source string) {
	for _, w := range viaWords {
		if strings.HasPrefix(p, w.lead) {
			return w.way, strings.TrimPrefix(p, w.lead)
		}
	}
	return p, ""
}

func viaWidth(s string) int { return runewidth.StringWidth(s) }

// universalGives reports a group's universal level that gives, alone, the
// level the group has on an object.
func universalGives(universal, has string) bool {
	return kinds.LevelRank(universal) > 0 && kinds.LevelRank(universal) >= kinds.LevelRank(has)
}
