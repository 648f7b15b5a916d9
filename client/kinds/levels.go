package kinds

// AccessLevels are the access levels a subject can have on an object,
// lowest first: the one order that reports, plans, org files and the
// sandbox rank levels by. Query libraries stop at edit; a grant is at
// least use.
var AccessLevels = []string{"none", "use", "edit", "own"}

// LevelRank orders access levels as AccessLevels lists them: none 0, use
// 1, edit 2, own 3; 0 for anything else.
func LevelRank(level string) int {
	for i, l := range AccessLevels {
		if l == level {
			return i
		}
	}
	return 0
}

// AttributeTypes are the data types a user attribute holds, as the API
// takes them: the one list org files and the user-attributes commands
// accept.
var AttributeTypes = []string{"string", "json", "number"}

// MemberRoles are the roles a user has in a group: an admin of the group
// (is_group_admin) or a member only.
var MemberRoles = []string{"admin", "member"}
