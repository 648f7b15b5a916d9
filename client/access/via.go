package access

import (
	"encoding/json"
	"strings"
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

// Via says where one subject's access comes from: direct; universal
// (a group's own universal access level); universal through GROUP or member
// of GROUP (a user's groups); inherited from FOLDER PATH.
func Via(e Entry, groupEntries map[string]Entry, n Namer) string {
	var via []string
	s := e.Sources
	if s.Direct {
		via = append(via, "direct")
	}
	if s.Universal && len(s.Groups) == 0 {
		via = append(via, "universal")
	}
	for _, g := range s.Groups {
		id := idText(g.ID)
		ge, ok := groupEntries[id]
		if ok && ge.Sources.Universal && !ge.Sources.Direct && ge.Sources.Inherited == nil {
			via = append(via, "universal through "+n.Name("groups", id))
		} else {
			via = append(via, "member of "+n.Name("groups", id))
		}
	}
	if s.Inherited != nil && len(s.Inherited.ID) > 0 {
		from := idText(s.Inherited.ID)
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
	return e.Sources.Direct || (e.Sources.Inherited != nil && len(e.Sources.Inherited.ID) > 0)
}
