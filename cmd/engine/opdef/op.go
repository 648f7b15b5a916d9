package opdef

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/orgctl/orgctl/output"
)

// Kind is how a field's text becomes a JSON value.
type Kind int

const (
	KString  Kind = iota
	KInt          // integer
	KNumber       // any JSON number
	KBool         // true/false
	KStrings      // repeatable, comma-separated -> array of strings
	KKV           // repeatable key=value -> object (values parsed as JSON when they are JSON, else strings)
	KJSON         // a JSON value given inline
	KTexts        // repeatable -> array of strings, each occurrence whole (values may hold commas)
)

// In says where a field's value goes.
type In int

const (
	InBody  In = iota // request body key (dot path for nesting)
	InQuery           // query parameter
	InPatch           // a JSON-Patch "replace" operation on /Key
	InLocal           // an option of orgctl's own: kept in Call.Local under the flag name, never sent as is
)

// Field is one input of an operation: a flag on the command line, or a
// column of a bulk file.
type Field struct {
	Flag     string
	Key      string // where the value goes (body dot path, query name, patch path); unused for InLocal
	In       In
	Kind     Kind
	Required bool
	Enum     []string
	Usage    string
	Short    string
	// Default is only the flag's shown default.
	Default string
	// Complete names the object kind the value completes from ("users",
	// "groups": see kinds.Views); "" infers it from Key, "-" turns it off.
	Complete string
	// Into is the body path an InLocal field's values end up at once the
	// op's Shape has placed them ("members[].id"): they are checked against
	// the spec's rule for it, and problems there name the flag.
	Into string
	// KindBy, when set, picks the kind from another input instead
	// (--object-id is a folder or an app by --object-type).
	KindBy *KindBy
	// KeyKind is the object kind named by the KEY of KEY=VALUE values
	// (--value ENVIRONMENT=VALUE), whose names are looked up like any other.
	KeyKind string
}

// Op declares one API operation as a command. Build turns an Input into a
// checked Call; package cmd/engine turns the Op into a command and runs the
// Call (see its doc for the phases).
type Op struct {
	Use     string // "get USER_ID"
	Short   string
	Long    string
	Example string
	Method  string
	Path    string   // "/users/{userId}"
	Args    []string // path parameters filled from positional args, in order
	Scope   string   // "Users > Read", as the API docs name it
	Fields  []Field
	Columns []output.Column
	// List adds --limit and --all (next_token pagination).
	List bool
	// Body adds --body FILE|- for JSON too rich for flags.
	Body bool
	// Patch: the API takes {"operations":[...]} (JSON Patch).
	Patch bool
	// Destructive asks for confirmation (or --yes).
	Destructive bool
	// Confirm is the question a destructive op asks, with %s for what it
	// acts on; it says truthfully what happens and whether it can be undone.
	// Empty: "Run `COMMAND`? This cannot be undone."
	Confirm string
	// TypeToConfirm, for org-wide actions, is the name the user must type
	// at the prompt instead of answering y.
	TypeToConfirm func(ctx context.Context, org Org, c *Call) (string, error)
	// Hidden keeps a command out of help (deprecated endpoints reached through a flag).
	Hidden bool
	// ArgsComplete names, per positional argument, the object kind it
	// completes from; missing or "" entries are inferred from the path
	// parameter's name, "-" turns completion off.
	ArgsComplete []string
	// ArgsKindBy picks the kind of the argument at an index from another
	// input (access-list OBJECT_TYPE OBJECT_ID).
	ArgsKindBy map[int]KindBy
	// ArgFlags name, per positional argument, a flag that may give it
	// instead ("" for none), so that a remove takes the --user its add
	// takes: `groups members remove support --user ana@example.com`.
	ArgFlags []string

	// Shape is the op's own part of the build phase: it moves local options
	// into the request, fills defaults and rejects combinations that single
	// fields cannot. It may read files the user named; it sends nothing.
	Shape func(c *Call) error
	// Merge completes the request from the answers to Call.Reads, for
	// endpoints that replace a whole object (read, merge, write). The send
	// phase calls it between the reads and the request.
	Merge func(c *Call, current []json.RawMessage) error
	// View prints the answer where the default formats do not fit.
	View func(p *output.Printer, c *Call, data json.RawMessage) error
	// Keep narrows a list on orgctl's side (users list --active): the test
	// an item of the answer must pass in this call, or nil when the call
	// narrows nothing. The engine narrows the answer before it prints it,
	// in every format and with --json alike.
	Keep func(c *Call) func(item json.RawMessage) bool

	// Exists says how a bulk job tells that what a row would create is
	// already there, and what --on-exists can do about it (see exists.go).
	Exists *Existence
	// Batch is the body's array that a bulk job's rows with the same
	// arguments share: the API takes them in one request (a group's members).
	Batch string
	// Idempotent: sending the request twice leaves what sending it once
	// does, so a bulk job resends it when an earlier run lost the answer.
	// PUT, DELETE and JSON Patch built from flags are so without saying.
	Idempotent bool

	// Done is the line a write prints on stderr once it succeeded, with %s
	// for the object ("Disabled user %s"); empty: the verb and the noun.
	Done string
	// Said, when set, words that line from the call's values as typed
	// ("Added dev.lee@example.com to group support"); "" falls back to Done.
	Said func(c *Call) string
	// Noun is what one object of the op's group is called, Plural the
	// group's objects: "user", "users". The engine sets them from the group.
	Noun, Plural string

	// Siblings are the other operations of the op's group (--on-exists update
	// runs one of them).
	Siblings []Op

	// AcrossProfiles lets a write run in several profiles' Spaces at once
	// (--profiles); reads always may.
	AcrossProfiles bool
}

// Org is what a type-to-confirm question may read of the org: its host
// name, or one object through the paced client. The engine implements it.
type Org interface {
	Host() (string, error)
	Get(ctx context.Context, path, scope string) (json.RawMessage, error)
}

// Name is the operation's command name, the first word of its Use.
func (op *Op) Name() string { name, _, _ := strings.Cut(op.Use, " "); return name }

// Mutating reports whether the op sends anything but a GET.
func (op *Op) Mutating() bool { return op.Method != "GET" }

// Writes reports whether the op changes something: a POST that lists
// (permissions list-objects) is a query.
func (op *Op) Writes() bool {
	return op.Mutating() && !strings.HasPrefix(op.Use, "list")
}

// Reads reports whether the op fetches data without changing anything: a
// get, a list, or a query sent as a POST (permissions list-objects).
func (op *Op) Reads() bool {
	return op.Method == "GET" || strings.HasPrefix(op.Use, "list")
}

// Sibling is the op of the same group whose Use starts with word.
func (op *Op) Sibling(word string) *Op {
	if word == "" {
		return nil
	}
	for i := range op.Siblings {
		if op.Siblings[i].Name() == word {
			return &op.Siblings[i]
		}
	}
	return nil
}

// HasField reports whether the op has a field with this flag name.
func (op *Op) HasField(flag string) bool {
	for _, fd := range op.Fields {
		if fd.Flag == flag {
			return true
		}
	}
	return false
}

// ArgNames are the names of a command's arguments in its Use line
// ("get USER_ID" -> USER_ID).
func ArgNames(use string) []string {
	parts := strings.Fields(use)
	if len(parts) <= 1 {
		return nil
	}
	return parts[1:]
}

// ArgLabel names positional argument i for messages: as the Use line
// shows it, else by its path parameter.
func ArgLabel(op *Op, i int) string {
	if names := ArgNames(op.Use); i < len(names) {
		return names[i]
	}
	return op.Args[i]
}
