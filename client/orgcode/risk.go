package orgcode

import (
	"strings"

	"github.com/orgctl/orgctl/client/access"
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

// levelRank orders a field's access level as access.LevelRank does: a
// level the org left unset ranks as none.
func levelRank(v any) int {
	s, _ := v.(string)
	return access.LevelRank(s)
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
