package orgcode

import (
	"slices"
	"sort"
	"strings"

	"github.com/orgctl/orgctl/client/kinds"
)

// Risk names what makes a change one a reviewer should not miss: it gives
// someone more power or takes something away.
type Risk string

const (
	RiskNewAdmin      Risk = "new admin"
	RiskMemberRemoved Risk = "member removed"
	RiskDelete        Risk = "delete"
	RiskUniversal     Risk = "universal access raised"
)

// Risks are every risk, in the order summaries list them.
var Risks = []Risk{RiskNewAdmin, RiskMemberRemoved, RiskDelete, RiskUniversal}

// Risk is the change's own risk: deleting the object.
func (c Change) Risk() Risk {
	if c.Action == Delete && c.Kind != "grants" {
		return RiskDelete
	}
	return ""
}

// FieldRisk is one field change's risk in c.
func (c Change) FieldRisk(fc FieldChange) Risk {
	switch c.Kind {
	case "users":
		if fc.Field == "admin" && fc.New == true && (!fc.HasOld || fc.Old != true) {
			return RiskNewAdmin
		}
	case "groups":
		switch fc.Field {
		case "universal_app_access", "universal_resource_access", "universal_workflow_access", "universal_query_library_access":
			if !fc.HasOld && levelRank(fc.New) > 0 || fc.HasOld && levelRank(fc.New) > levelRank(fc.Old) {
				return RiskUniversal
			}
		default:
			if strings.HasPrefix(fc.Field, "members.") && fc.HasOld && !fc.HasNew {
				return RiskMemberRemoved
			}
		}
	}
	return ""
}

// levelRank orders a field's access level as kinds.LevelRank does: a
// level the org left unset ranks as none.
func levelRank(v any) int {
	s, _ := v.(string)
	return kinds.LevelRank(s)
}

// RiskCounts counts the plan's risks.
func (p *Plan) RiskCounts() map[Risk]int {
	out := map[Risk]int{}
	for _, c := range p.Changes {
		if r := c.Risk(); r != "" {
			out[r]++
		}
		for _, fc := range c.Fields {
			if r := c.FieldRisk(fc); r != "" {
				out[r]++
			}
		}
	}
	return out
}

// KindCounts counts the changes of each kind by action.
func (p *Plan) KindCounts() map[string]map[Action]int {
	out := map[string]map[Action]int{}
	for _, c := range p.Changes {
		if out[c.Kind] == nil {
			out[c.Kind] = map[Action]int{}
		}
		out[c.Kind][c.Action]++
	}
	return out
}

// BuiltinRemoval is the members a plan takes out of a built-in group
// (admin, All Users): every org has them, and leaving admin takes a
// user's admin rights.
type BuiltinRemoval struct {
	Group   string
	Members []string
}

// BuiltinRemovals are the plan's removals from the built-in groups, in
// the order of kinds.BuiltinGroups.
func (p *Plan) BuiltinRemovals() []BuiltinRemoval {
	var out []BuiltinRemoval
	for _, g := range kinds.BuiltinGroups {
		r := BuiltinRemoval{Group: g}
		for _, c := range p.Changes {
			if c.Kind != "groups" || !strings.EqualFold(c.Key, g) {
				continue
			}
			for _, fc := range c.Fields {
				if email, ok := strings.CutPrefix(fc.Field, "members."); ok && fc.HasOld && !fc.HasNew {
					r.Members = append(r.Members, email)
				}
			}
		}
		if len(r.Members) > 0 {
			sort.Strings(r.Members)
			out = append(out, r)
		}
	}
	return out
}

// AdminChanges are the users the plan takes admin rights from (removed
// from admin, or their admin field set false) and gives them to.
func (p *Plan) AdminChanges() (removed, added []string) {
	for _, c := range p.Changes {
		for _, fc := range c.Fields {
			switch {
			case c.Kind == "groups" && strings.EqualFold(c.Key, "admin") && strings.HasPrefix(fc.Field, "members."):
				email := strings.TrimPrefix(fc.Field, "members.")
				if fc.HasOld && !fc.HasNew {
					removed = append(removed, email)
				} else if !fc.HasOld && fc.HasNew {
					added = append(added, email)
				}
			case c.Kind == "users" && fc.Field == "admin":
				if fc.New == false && fc.HasOld && fc.Old == true {
					removed = append(removed, c.Key)
				} else if fc.New == true && (!fc.HasOld || fc.Old != true) {
					added = append(added, c.Key)
				}
			}
		}
	}
	sort.Strings(removed)
	sort.Strings(added)
	return slices.Compact(removed), slices.Compact(added)
}

// DisabledUsers are the users the plan disables: pruned (the API keeps a
// deleted user's record, so prune disables) or their active field set
// false. An admin among them loses the org as surely as a demoted one.
func (p *Plan) DisabledUsers() []string {
	var out []string
	for _, c := range p.Changes {
		if c.Kind != "users" {
			continue
		}
		if c.Action == Delete {
			out = append(out, c.Key)
			continue
		}
		for _, fc := range c.Fields {
			if fc.Field == "active" && fc.New == false && fc.HasOld && fc.Old == true {
				out = append(out, c.Key)
			}
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// DisabledAdmins are the users the plan disables that the live read
// knew as admins; a saved plan, which keeps no live read, knows none.
func (p *Plan) DisabledAdmins() []string {
	var out []string
	for _, c := range p.Changes {
		if c.Kind == "users" && c.Action == Delete && c.live != nil && c.live.Fields["admin"] == true {
			out = append(out, c.Key)
		}
	}
	sort.Strings(out)
	return out
}

// PeopleKinds are the kinds that hold a Space's own people: its users and
// its groups' members. A promotion from another Space leaves them out.
var PeopleKinds = []string{"users", "groups"}

// KindsBut are every kind but those named, for an --only that leaves
// them out.
func KindsBut(leave ...string) []string {
	var out []string
	for _, k := range Kinds() {
		if !slices.Contains(leave, k.Name) {
			out = append(out, k.Name)
		}
	}
	return out
}
