package spec

import (
	"sort"
	"strings"

	"github.com/orgctl/orgctl/output/lazy"
)

// Operation is what the API description says of one operation.
type Operation struct {
	Method string
	// Path is relative to /api/v2, its parameters in braces ("/users/{userId}").
	Path string
	Tag  string
	// Scope is the token scope its description says it needs, as tokens
	// and the API's 403s spell it ("users:read"); "" for none. Where the
	// description accepts any of several, Scope is the first and Scopes
	// lists them all.
	Scope  string
	Scopes []string
	// ScopeName is the scope's label in the console's token settings
	// ("Users > Read"), known from the 2.12 description; "" when unknown.
	ScopeName string
	Summary   string
	// Badges are the description's x-badges labels: the plans that have
	// the operation ("Business", "Enterprise") and notes such as
	// "Available for classic apps only". See Plans.
	Badges []string
	// Since is the earliest API version known to have it: the 2.12
	// description's "Available from API version" note, else 2.12.0 when
	// that description has it, else the version that added it.
	Since string
	// Deprecated operations still work; Alternate is the one to use
	// instead ("GET /source_control/releases/{elementUuid}").
	Deprecated bool
	Alternate  string
	// Paginated operations take or answer with next_token.
	Paginated bool
	// Unpublished operations are served and documented but in no
	// description (POST /apps), so no instance's description lists them.
	Unpublished bool
	// Dropped operations are in the 2.12 description only.
	Dropped bool
	// Added are the fields of its answer's data (of one item, for a list)
	// that 4.0 describes and 2.12 does not ("seat_type").
	Added  []string
	Status int // the success status
	// Params are the path parameters, in the path's order.
	Params []Value
	Query  []Value
	// Body are the request body's values by dot path (see Value.Name).
	Body []Value
	// Schema is the request body's schema (the keywords Schema checks), as
	// JSON; "" when the operation takes no body.
	Schema string
	// Example is an answer that satisfies the described schema, as JSON.
	Example string
}

// Operations are every published operation, in the description's order.
func Operations() []Operation { return operations }

// Key is how an operation is found: its method and its path with each
// parameter, whether written {name} or :name, as {} ("GET /users/{}").
func Key(method, path string) string {
	var b strings.Builder
	b.WriteString(strings.ToUpper(method))
	b.WriteString(" /")
	for i, seg := range strings.Split(strings.Trim(path, "/"), "/") {
		if i > 0 {
			b.WriteByte('/')
		}
		if isParam(seg) {
			seg = "{}"
		}
		b.WriteString(seg)
	}
	return b.String()
}

func isParam(seg string) bool {
	return strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") || strings.HasPrefix(seg, ":")
}

// PathParams are a path template's parameter names in order.
func PathParams(path string) []string {
	var names []string
	for _, seg := range strings.Split(path, "/") {
		if isParam(seg) {
			names = append(names, strings.Trim(seg, "{}:"))
		}
	}
	return names
}

// Collection is the path of the collection an item path belongs to:
// "/users/{userId}" -> "/users".
func Collection(path string) string {
	segs := strings.Split(strings.TrimRight(path, "/"), "/")
	if n := len(segs); n > 1 && isParam(segs[n-1]) {
		segs = segs[:n-1]
	}
	return strings.Join(segs, "/")
}

type keyed struct {
	key string
	op  *Operation
}

// byKey indexes the operations by Key, sorted, once asked.
var byKey = lazy.Value[[]keyed]{New: func() []keyed {
	idx := make([]keyed, len(operations))
	for i := range operations {
		idx[i] = keyed{Key(operations[i].Method, operations[i].Path), &operations[i]}
	}
	sort.Slice(idx, func(i, j int) bool { return idx[i].key < idx[j].key })
	return idx
}}

// Find is the published operation of a method and path; nil when it is
// not published.
func Find(method, path string) *Operation {
	k := Key(method, path)
	idx := byKey.Get()
	i := sort.Search(len(idx), func(i int) bool { return idx[i].key >= k })
	if i < len(idx) && idx[i].key == k {
		return idx[i].op
	}
	return nil
}

// BodyValue is the rule of the body value at a dot path; nil for none.
func (o *Operation) BodyValue(path string) *Value {
	if o == nil {
		return nil
	}
	for i := range o.Body {
		if o.Body[i].Name == path {
			return &o.Body[i]
		}
	}
	return nil
}

// QueryValue is the rule of a query parameter; nil for none.
func (o *Operation) QueryValue(name string) *Value {
	if o == nil {
		return nil
	}
	for i := range o.Query {
		if o.Query[i].Name == name {
			return &o.Query[i]
		}
	}
	return nil
}

// Param is the rule of the path parameter that opPath, another spelling
// of the operation's path, names name: matched by position.
func (o *Operation) Param(opPath, name string) *Value {
	if o == nil {
		return nil
	}
	for i, n := range PathParams(opPath) {
		if n == name && i < len(o.Params) {
			return &o.Params[i]
		}
	}
	return nil
}
