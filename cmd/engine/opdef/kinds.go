package opdef

// Which object kind each input of an operation names (a user, a group...),
// declared or inferred from the path parameter or body key: name
// resolution and completion both read it.

import (
	"strings"

	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/ratebudget"
)

// The tables below are (name, kind) pairs rather than maps, so that no
// code builds them before main; they are searched linearly.

// ParamKinds infers an argument's kind from the spec's path parameter name,
// so families complete ids without declaring anything.
var ParamKinds = [...][2]string{
	{"userId", "users"}, {"userSid", "users"}, {"groupId", "groups"}, {"folderId", "folders"},
	{"appId", "apps"}, {"appUuid", "apps"}, {"workflowId", "workflows"}, {"spaceId", "spaces"},
	{"environmentId", "environments"}, {"resourceId", "resources"},
	{"userInviteId", "invites"}, {"attributeName", "attribute-names"}, {"roleId", "roles"},
}

// IDKinds are the kinds inferred for a path whose parameter is just {id}:
// the one whose list (in the registry) is of the path's family.
var IDKinds = [...]string{"config-vars", "themes", "user-attributes"}

// KeyKinds infers a flag's kind from the last segment of its Field.Key.
var KeyKinds = [...][2]string{
	{"user", "users"}, {"user_id", "users"}, {"user_ids", "users"},
	{"group_id", "groups"}, {"group_ids", "groups"},
	{"folder_id", "folders"}, {"parent_folder_id", "folders"},
	{"app_id", "apps"}, {"app_ids", "apps"}, {"landing_page_app_id", "apps"}, {"workflow_id", "workflows"}, {"workflow_ids", "workflows"},
	{"space_id", "spaces"}, {"destination_space_id", "spaces"},
	{"environment_id", "environments"}, {"resource_id", "resources"}, {"theme_id", "themes"},
	{"group", "groups"}, {"defaultGroupIds", "groups"}, {"assigned_to_users", "users"}, {"role_id", "roles"},
	{"userInviteIds", "invites"},
}

// kindIn is the kind paired with name in table; false when none is.
func kindIn(table [][2]string, name string) (string, bool) {
	for _, p := range table {
		if p[0] == name {
			return p[1], true
		}
	}
	return "", false
}

// NoCompletion turns inference off in Field.Complete and Op.Args.Complete.
const NoCompletion = "-"

// ArgKind is the object kind positional argument i names: declared in
// Args.Complete, else inferred from its path parameter ("" for none).
func (op *Op) ArgKind(i int) string {
	if i < len(op.Args.Complete) && op.Args.Complete[i] != "" {
		return op.Args.Complete[i]
	}
	if i >= len(op.Args.Params) {
		return ""
	}
	if k, ok := kindIn(ParamKinds[:], op.Args.Params[i]); ok {
		return k
	}
	if op.Args.Params[i] == "id" {
		family := ratebudget.Family(op.Path)
		for _, k := range IDKinds {
			if ratebudget.Family(kinds.Of(k).List) == family {
				return k
			}
		}
	}
	return ""
}

// KindBy picks an input's object kind from the value of another input: a
// flag, or (Flag "") the argument at index Arg.
type KindBy struct {
	Flag string
	Arg  int
	// Kinds maps that value to a kind; a value not listed names no kind. A
	// function, so a table declared at package level costs nothing until a
	// command reads it.
	Kinds func() map[string]string
}

// Pick is the kind the other input's value in one Input selects.
func (k KindBy) Pick(in Input) string {
	var v string
	if k.Flag != "" {
		if vs := in.Values[k.Flag]; len(vs) > 0 {
			v = vs[len(vs)-1]
		}
	} else if k.Arg < len(in.Args) {
		v = in.Args[k.Arg]
	}
	return k.Kinds()[strings.TrimSpace(v)]
}

// ArgKindIn is the argument's kind in one input: Args.KindBy when the
// argument has one, else the declared or inferred kind.
func (op *Op) ArgKindIn(i int, in Input) string {
	if k, ok := op.Args.KindBy[i]; ok {
		return k.Pick(in)
	}
	return op.ArgKind(i)
}

// KindIn is the field's kind in one input.
func (fd *Field) KindIn(in Input) string {
	if fd.KindBy != nil {
		return fd.KindBy.Pick(in)
	}
	return fd.ObjectKind()
}

// ObjectKind is the object kind the field's values name: Complete, else
// inferred from the last segment of its Key ("" for none).
func (fd *Field) ObjectKind() string {
	if fd.Complete != "" {
		return fd.Complete
	}
	key := fd.Key
	if fd.In == InLocal {
		key = strings.ReplaceAll(fd.Flag, "-", "_")
	}
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		key = key[i+1:]
	}
	k, _ := kindIn(KeyKinds[:], key)
	return k
}
