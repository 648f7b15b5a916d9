package orgcode

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"

	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/output/lazy"
)

// fieldType says what values a field holds in a file.
type fieldType int

const (
	tString fieldType = iota
	tBool
	tEnum
	// tRef is a natural key of another kind, or null for none.
	tRef
	// tScalarMap maps names to scalars (a user's attributes).
	tScalarMap
	// tLevelMap maps natural keys of another kind to one of Enum (members
	// to admin or member, folders to an access level).
	tLevelMap
	// tSecret is a string that files hold only as SecretForm.
	tSecret
	// tEnvMap maps environment names to strings (a configuration
	// variable's values); secret when the document's "secret" is true.
	tEnvMap
	// tAny is any YAML value (the organization's settings: flags, texts, lists).
	tAny
)

// FileField is one field a kind's files hold, in the order files list it.
type FileField struct {
	Name string
	Type fieldType
	Enum []string
	// Ref is the kind whose natural keys the values (tRef) or map keys
	// (tLevelMap, tEnvMap) are.
	Ref string
}

// FileKind is one kind of object as org files hold it.
type FileKind struct {
	// Name is the kind's folder ("users").
	Name string
	// KeyField is the field of a file holding the natural key ("email"):
	// the registry's Key, except where the key is no field of the API's
	// object (a folder's path, a grant's subject, the organization).
	KeyField string
	Fields   []FileField
	// reg is the kind as the registry describes it (whether keys fold,
	// whether it is the org's own singleton); zero for grants, which are
	// access lists, not a kind of object.
	reg kinds.Kind
}

func (k *FileKind) field(name string) *FileField {
	for i := range k.Fields {
		if k.Fields[i].Name == name {
			return &k.Fields[i]
		}
	}
	return nil
}

func (k *FileKind) fieldNames() []string {
	out := []string{k.KeyField}
	for _, f := range k.Fields {
		out = append(out, f.Name)
	}
	return out
}

// groupBoolFields are the group's permission flags org files manage.
var groupBoolFields = []string{"user_list_access", "audit_log_access", "unpublished_release_access",
	"usage_analytics_access", "theme_access", "account_details_access"}

// Kinds are every kind, in dependency order: a kind refers only to kinds
// before it, so applying them in this order creates what is referred to
// first (and deleting in reverse removes references first).
func Kinds() []*FileKind { return kindList.Get() }

// kindList declares which fields each kind's files hold and in what order:
// that is org as code's own file format, so it stays here. What the values
// may be (access levels, member roles, attribute types) and how each kind
// is keyed are facts of the kind, the registry's (client/kinds).
var kindList = lazy.Value[[]*FileKind]{New: func() []*FileKind {
	group := &FileKind{Name: "groups", Fields: []FileField{
		{Name: "universal_app_access", Type: tEnum, Enum: kinds.AccessLevels},
		{Name: "universal_resource_access", Type: tEnum, Enum: kinds.AccessLevels},
		{Name: "universal_workflow_access", Type: tEnum, Enum: kinds.AccessLevels},
		{Name: "universal_query_library_access", Type: tEnum, Enum: kinds.AccessLevels[:3]}, // a query library is used or edited, never owned
	}}
	for _, b := range groupBoolFields {
		group.Fields = append(group.Fields, FileField{Name: b, Type: tBool})
	}
	group.Fields = append(group.Fields, FileField{Name: "landing_page_app", Type: tRef, Ref: "apps"},
		FileField{Name: "members", Type: tLevelMap, Enum: kinds.MemberRoles, Ref: "users"})
	list := []*FileKind{
		{Name: "user-attributes", Fields: []FileField{
			{Name: "label", Type: tString},
			{Name: "data_type", Type: tEnum, Enum: kinds.AttributeTypes},
			{Name: "default_value", Type: tString},
		}},
		{Name: "users", Fields: []FileField{
			{Name: "first_name", Type: tString},
			{Name: "last_name", Type: tString},
			{Name: "active", Type: tBool},
			{Name: "admin", Type: tBool},
			{Name: "attributes", Type: tScalarMap, Ref: "user-attributes"},
		}},
		group,
		{Name: "folders", KeyField: "folder"},
		{Name: "grants", KeyField: "subject", Fields: []FileField{
			{Name: "folders", Type: tLevelMap, Enum: kinds.AccessLevels[1:], Ref: "folders"},
			{Name: "apps", Type: tLevelMap, Enum: kinds.AccessLevels[1:], Ref: "apps"},
		}},
		{Name: "environments", Fields: []FileField{
			{Name: "description", Type: tString},
			{Name: "color", Type: tString},
		}},
		{Name: "config-vars", Fields: []FileField{
			{Name: "description", Type: tString},
			{Name: "secret", Type: tBool},
			{Name: "values", Type: tEnvMap, Ref: "environments"},
		}},
		{Name: "themes", Fields: []FileField{
			{Name: "theme", Type: tScalarMap},
		}},
		{Name: "organization", KeyField: "organization", Fields: anyFields(orgSettings)},
	}
	for _, k := range list {
		k.reg, _ = kinds.Lookup(k.Name)
		if k.KeyField == "" {
			k.KeyField = k.reg.Key
		}
	}
	return list
}}

// orgSettings are the organization settings the API reads and patches.
var orgSettings = []string{"two_factor_auth_required", "two_factor_auth_type", "request_access_enabled",
	"release_management_enabled", "app_owners_permissions_management", "cache_queries_per_user",
	"disable_new_login_ip_notification_email", "ai_support_bot_disabled", "retool_forms_disabled",
	"apply_preloaded_css_to_homepage", "preloaded_css", "preloaded_javascript", "javascript_links",
	"workflow_run_retention_period_mins"}

// orgKey is the natural key of the one organization a token reaches.
const orgKey = "settings"

func anyFields(names []string) []FileField {
	out := make([]FileField, len(names))
	for i, n := range names {
		out[i] = FileField{Name: n, Type: tAny}
	}
	return out
}

// KindNamed is the kind with this folder name, or nil.
func KindNamed(name string) *FileKind {
	for _, k := range Kinds() {
		if k.Name == name {
			return k
		}
	}
	return nil
}

func kindNames() []string {
	out := make([]string, len(Kinds()))
	for i, k := range Kinds() {
		out[i] = k.Name
	}
	return out
}

// Doc is one object as files hold it (or as the live org maps to one).
type Doc struct {
	Kind *FileKind
	Key  string
	// Fields are the managed fields present: a file may leave a field out,
	// and then the live value is kept whatever it is.
	Fields map[string]any
	// File and Line say where the document is (empty for a live one);
	// Lines where each field is.
	File  string
	Line  int
	Lines map[string]int
	// ID is the live object's id (live documents only).
	ID string
	// Inactive marks a disabled user: deleting one changes nothing.
	Inactive bool
	// Builtin says why the org cannot do without the live object (a
	// built-in group): prune leaves it.
	Builtin string
}

// At is "FILE:LINE" for a field of a file document.
func (d *Doc) At(field string) string {
	line := d.Line
	if l, ok := d.Lines[field]; ok {
		line = l
	}
	return fmt.Sprintf("%s:%d", d.File, line)
}

// norm brings a value to the one form comparisons and files use: int64
// for whole numbers, float64 for others, maps with string keys.
func norm(v any) any {
	switch t := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(t.String(), 10, 64); err == nil {
			return i
		}
		f, _ := t.Float64()
		return norm(f)
	case float64:
		if t == math.Trunc(t) && math.Abs(t) < 1<<53 {
			return int64(t)
		}
		return t
	case float32:
		return norm(float64(t))
	case int:
		return int64(t)
	case int32:
		return int64(t)
	case uint64:
		return int64(t)
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = norm(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = norm(x)
		}
		return out
	}
	return v
}

func equal(a, b any) bool { return reflect.DeepEqual(norm(a), norm(b)) }

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
