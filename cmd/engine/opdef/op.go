package opdef

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/orgctl/orgctl/output"
)

// ValueType is how a field's text becomes a JSON value.
type ValueType int

const (
	TString  ValueType = iota
	TInt               // integer
	TNumber            // any JSON number
	TBool              // true/false
	TStrings           // repeatable, comma-separated -> array of strings
	TKV                // repeatable key=value -> object (values parsed as JSON when they are JSON, else strings)
	TJSON              // a JSON value given inline
	TTexts             // repeatable -> array of strings, each occurrence whole (values may hold commas)
)

// In says where a field's value goes.
type In int

const (
	InBody  In = iota // request body key (dot path for nesting)
	InQuery           // query parameter
	InPatch           // a JSON-Patch "replace" operation on /Key
	InLocal           // an option of orgctl's own: kept in Call.Given.Local under the flag name, never sent as is
)

// Field is one input of an operation: a flag on the command line, or a
// column of a bulk file.
type Field struct {
	Flag string
	Key  string // where the value goes (body dot path, query name, patch path); unused for InLocal
	In   In
	Type ValueType
	// Required: orgctl needs the flag though the description does not
	// require its value (an option of orgctl's own, or a value the op's
	// hooks need). Where the description requires it, Placed.Fields says so.
	Required bool
	// Optional: the description requires the value, yet the flag is not
	// required: the op's hooks fill it when the flag is not given (a
	// default, a read-merge-write), or the description overstates it.
	Optional bool
	// Enum are the values of a field the description lists none for (an
	// option of orgctl's own, or a value it leaves open); where it lists
	// them, Placed.Fields carries them.
	Enum  []string
	Usage string
	Short string
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
	// Fold marks a query value the API holds once whatever its case (an
	// email) but filters as typed: a list that answers nothing for a
	// value with capitals is asked once more with the value in lower case.
	Fold bool
}

// Op declares one API operation as a command. It is a declaration only:
// the engine reads it and never writes it; what the engine works out per
// command (the group's noun, its columns, its other operations) is a
// Placed, and what one run works out is a Call. Build turns an Input into
// a checked Call; package cmd/engine turns the Op into a command and runs
// the Call (see its doc for the phases).
//
// Method and Path name the operation of the API description the op sends;
// every other fact of that endpoint (its scope, its values' types and
// allowed values, what it requires, whether it pages, the plan it needs)
// is the description's (package client/spec), and a family does not
// restate it: Placed carries those facts, and a test in package families
// fails on a declaration that restates one.
type Op struct {
	Use    string // "get USER_ID"
	Help   Help
	Method string
	Path   string // "/users/{userId}"
	// Scope is only for a request no description names (orgctl api's
	// raw paths); a declared operation's is the description's.
	Scope  string
	Args   Args
	Fields []Field
	// Columns are the table's columns; nil: the group's.
	Columns []output.Column
	// List is only for a request no description names (orgctl api's raw
	// GETs): a declared operation pages (--limit and --all, next_token)
	// where the description says it does.
	List bool
	// Body adds --body FILE|- for JSON too rich for flags.
	Body bool
	// Patch: the API takes {"operations":[...]} (JSON Patch).
	Patch bool
	// Confirm, when set, makes the op destructive: it asks before sending
	// (or takes --yes).
	Confirm *Confirm
	Hooks   Hooks
	Bulk    Bulk
	// AcrossProfiles lets a write run in several profiles' Spaces at once
	// (--profiles); reads always may.
	AcrossProfiles bool
}

// Help is what the op's help and its success line say.
type Help struct {
	Short   string
	Long    string
	Example string
	// Done is the line a write prints on stderr once it succeeded, with %s
	// for the object ("Disabled user %s"); empty: the verb and the noun.
	Done string
	// Hidden keeps a command out of help (deprecated endpoints reached through a flag).
	Hidden bool
}

// Args are the op's positional arguments.
type Args struct {
	// Params are the path parameters filled from positional args, in order.
	Params []string
	// Complete names, per positional argument, the object kind it
	// completes from; missing or "" entries are inferred from the path
	// parameter's name, "-" turns completion off.
	Complete []string
	// KindBy picks the kind of the argument at an index from another
	// input (access-list OBJECT_TYPE OBJECT_ID).
	KindBy map[int]KindBy
	// Flags name, per positional argument, a flag that may give it
	// instead ("" for none), so that a remove takes the --user its add
	// takes: `groups members remove support --user ana@example.com`.
	Flags []string
}

// Confirm is how a destructive op asks before it sends.
type Confirm struct {
	// Question is what it asks, with %s for what it acts on; it says
	// truthfully what happens and whether it can be undone.
	// Empty: "Run `COMMAND`? This cannot be undone."
	Question string
	// TypeToConfirm, for org-wide actions, is the name the user must type
	// at the prompt instead of answering y.
	TypeToConfirm func(ctx context.Context, org Org, c *Call) (string, error)
}

// Hooks are the op's own code in the engine's phases.
type Hooks struct {
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
	// Narrow filters a list on orgctl's side (users list --active): the
	// test an item of the answer must pass in this call, or nil when the
	// call narrows nothing. The engine narrows the answer before it prints
	// it, in every format and with --json alike.
	Narrow func(c *Call) func(item json.RawMessage) bool
	// DoneLine, when set, words the success line from the call's values as
	// typed ("Added dev.lee@example.com to group support"); "" falls back
	// to Help.Done.
	DoneLine func(c *Call) string
}

// Bulk are the rules a --from job follows for the op.
type Bulk struct {
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
}

// Placed is an Op in its group, as the engine runs it: the declaration,
// never written, what the group adds to it, and what the API description
// says of the operation it sends.
type Placed struct {
	*Op
	// Noun is what one object of the op's group is called, Plural the
	// group's objects: "user", "users".
	Noun, Plural string
	// Table are the op's columns, else its group's.
	Table []output.Column
	// Siblings are the operations of the op's group, itself included
	// (--on-exists update runs one of them).
	Siblings []*Placed
	// Scope is the token scope the description says the op needs, as the
	// console labels it where known ("Users > Read"), else as tokens spell
	// it: what a 403's message names.
	Scope string
	// List: the op pages (next_token), so it takes --limit and --all.
	List bool
	// Fields are the op's fields with what the description says of each
	// added: the values it lists, and whether it requires one.
	Fields []Field
}

// Place places a group's ops: noun and plural name the group's objects
// ("user", "users"), columns are the group's table, for ops without their
// own. The ops are read, never written.
func Place(ops []Op, noun, plural string, columns []output.Column) []*Placed {
	out := make([]*Placed, len(ops))
	for i := range ops {
		table := ops[i].Columns
		if table == nil {
			table = columns
		}
		out[i] = described(&Placed{Op: &ops[i], Noun: noun, Plural: plural, Table: table, Siblings: out})
	}
	return out
}

// Alone places an op that no group holds (a test's, or one built on the
// fly): its own columns, no noun, no siblings.
func Alone(op *Op) *Placed { return described(&Placed{Op: op, Table: op.Columns}) }

// Destructive reports whether the op asks before it sends.
func (op *Op) Destructive() bool { return op.Confirm != nil }

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
func (p *Placed) Sibling(word string) *Placed {
	if word == "" {
		return nil
	}
	for _, s := range p.Siblings {
		if s.Name() == word {
			return s
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
	return op.Args.Params[i]
}
