package bulkjob

import (
	"encoding/json"
	"errors"
	"hash/maphash"
	"maps"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/cmd/cli/usage"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output/jsonscan"
	"github.com/orgctl/orgctl/output/lazy"
	"github.com/spf13/pflag"
)

// upsert: the row's write replaces what is there (--on-exists update of a
// membership or a grant), so nothing is read first.
func (j *jobSpec) upsert() bool {
	ex := j.op.Bulk.Exists
	return ex != nil && ex.Check != nil && j.o.onExists == "update"
}

// outcome is what a row that was sent did; an upsert's row is "updated"
// whether or not it was there before, since nothing was read to tell.
func (j *jobSpec) outcome() bulk.Outcome {
	if j.upsert() {
		return bulk.Updated
	}
	return bulkOutcome(j.op)
}

// bulkOutcome is what a successful row of the op did.
func bulkOutcome(op *opdef.Placed) bulk.Outcome {
	if op.Method == http.MethodDelete || op.Destructive() {
		return bulk.Deleted
	}
	if op.Bulk.Exists != nil {
		return bulk.Created
	}
	switch op.Name() {
	case "create", "create-app", "clone", "add", "grant":
		return bulk.Created
	}
	return bulk.Updated
}

func (j *jobSpec) updateCommand() string {
	return strings.TrimSuffix(j.base.Command, j.op.Name()) + j.upd.Name()
}

// updateInput is the Input that updates the existing object id with a
// row's values (those the update op has).
func (j *jobSpec) updateInput(in opdef.Input, id string) opdef.Input {
	out := opdef.Input{Command: j.updateCommand(), Args: []string{id}, Values: map[string][]string{}}
	for flag, v := range in.Values {
		if j.upd.HasField(flag) {
			out.Values[flag] = v
		}
	}
	return out
}

// fieldKey is where a field's value sits in the body.
func (j *jobSpec) fieldKey(flag string) string {
	for _, fd := range j.op.Fields {
		if fd.Flag == flag {
			return fd.Key
		}
	}
	return flag
}

// keySeed hashes the keys a job compares rows by.
var keySeed = lazy.Value[maphash.Seed]{New: maphash.MakeSeed}

// rowKeys are what no two rows may share: the natural keys of what a row
// creates; for a change to one object (PATCH, PUT, DELETE) that object;
// for other changes the whole row (the same line twice).
func (j *jobSpec) rowKeys(in opdef.Input) []string {
	op := j.op
	switch {
	case op.Bulk.Exists != nil && op.Bulk.Exists.Check != nil:
		var keys []string
		prefix := strings.Join(in.Args, " ")
		for _, fl := range op.Bulk.Exists.Flags {
			for _, v := range in.Values[fl] {
				for _, part := range strings.Split(v, ",") {
					if p := strings.TrimSpace(part); p != "" {
						keys = append(keys, strings.TrimSpace(prefix+" "+fl+"="+strings.ToLower(p)))
					}
				}
			}
		}
		if len(keys) > 1 && op.Bulk.Exists.Flags[0] != "user" {
			return []string{strings.Join(keys, " ")} // a grant: subject and object together
		}
		return keys
	case op.Bulk.Exists != nil:
		return []string{j.naturalKey(in, true)}
	case len(op.Args.Params) > 0 && (op.Method == http.MethodPatch || op.Method == http.MethodPut || op.Method == http.MethodDelete):
		return []string{strings.ToLower(strings.Join(in.Args, " "))}
	}
	parts := append([]string(nil), in.Args...)
	for _, k := range slices.Sorted(maps.Keys(in.Values)) {
		parts = append(parts, k+"="+strings.Join(in.Values[k], ","))
	}
	return []string{strings.Join(parts, " ")}
}

// naturalKey is the text of the key fields ("ada@example.com";
// "app Reports app_1" for a folder), lower-cased when fold is set and the
// kind compares without case.
func (j *jobSpec) naturalKey(in opdef.Input, fold bool) string {
	ex := j.op.Bulk.Exists
	var parts []string
	for _, fl := range ex.Flags {
		if v := in.Values[fl]; len(v) > 0 {
			parts = append(parts, v[len(v)-1])
		}
	}
	k := strings.Join(parts, " ")
	if kd, _ := kinds.Lookup(ex.Kind); fold && kd.Fold {
		k = strings.ToLower(k)
	}
	return k
}

// displayKey names a row's object in its result.
func (j *jobSpec) displayKey(in opdef.Input) string {
	op := j.op
	switch {
	case op.Bulk.Exists != nil && op.Bulk.Exists.Display != nil:
		return op.Bulk.Exists.Display(in)
	case op.Bulk.Exists != nil && op.Bulk.Exists.Check == nil:
		return j.naturalKey(in, false)
	case op.Bulk.Exists != nil:
		parts := append([]string(nil), in.Args...)
		for _, fl := range op.Bulk.Exists.Flags {
			parts = append(parts, in.Values[fl]...)
		}
		return strings.Join(parts, " ")
	case len(in.Args) > 0:
		return strings.Join(in.Args, " ")
	}
	for _, fd := range op.Fields {
		if v := in.Values[fd.Flag]; fd.Required && len(v) > 0 {
			return v[len(v)-1]
		}
	}
	return ""
}

// replayable: sending the call again leaves what sending it once did.
func (j *jobSpec) replayable(c *opdef.Call) bool {
	switch {
	case j.op.Bulk.Idempotent, j.op.Method == http.MethodPut, j.op.Method == http.MethodDelete:
		return true
	case j.op.Method == http.MethodPatch && j.op.Patch && !c.Given.FromBody:
		return true // replace and add-key operations built from flags
	}
	return false
}

// resultID is the id of what a row made or changed: the answer's "id",
// else the object its arguments named.
func (j *jobSpec) resultID(c *opdef.Call, resp *client.Response) string {
	if ex := j.op.Bulk.Exists; ex != nil && ex.Check != nil && ex.Flags[0] == "user" {
		return strings.Join(c.LocalStrings("user"), ",") // the answer is the group
	}
	if resp != nil && len(resp.Data) > 0 && resp.Data[0] == '{' && (len(j.op.Args.Params) == 0 || bulkOutcome(j.op) == bulk.Created) {
		var obj struct {
			ID any `json:"id"`
		}
		if json.Unmarshal(resp.Data, &obj) == nil && obj.ID != nil {
			return jsonscan.AsText(obj.ID)
		}
	}
	return j.argID(c)
}

func (j *jobSpec) argID(c *opdef.Call) string {
	if len(j.op.Args.Params) == 0 {
		return ""
	}
	return c.Req.Params[j.op.Args.Params[len(j.op.Args.Params)-1]]
}

// flagRE finds flags in a message.
var flagRE = lazy.Regexp{Expr: `--[a-z][a-z0-9-]*`}

// problemText is a build error as lines of a file's problems: the
// command's name dropped, flags named as the columns they are here.
func (j *jobSpec) problemText(err error) []string {
	var ie *opdef.InputError
	var msgs []string
	if errors.As(err, &ie) {
		msgs = ie.Problems()
	} else {
		msgs = []string{err.Error()}
	}
	return j.problemLines(msgs)
}

// problemLines are a build's messages as a file's lines say them.
func (j *jobSpec) problemLines(msgs []string) []string {
	out := make([]string, 0, len(msgs))
	for _, m := range msgs {
		m = strings.TrimPrefix(m, j.base.Command+": ")
		if rest, ok := strings.CutPrefix(m, "required flag "); ok {
			m = strings.TrimPrefix(strings.TrimSuffix(rest, " not set"), "--") + " is missing or empty: it is required"
		} else if rest, ok := strings.CutPrefix(m, "required flags "); ok {
			m = strings.ReplaceAll(strings.TrimSuffix(rest, " not set"), "--", "") + " are missing or empty: they are required"
		}
		m = flagRE.Get().ReplaceAllStringFunc(m, func(s string) string {
			if j.op.HasField(s[2:]) {
				return s[2:] // in a file, the flag is a column
			}
			return s
		})
		out = append(out, m)
	}
	return out
}

func nothingToChange(err error) bool { return errors.Is(err, usage.ErrNothingToChange) }

// idFlags are the flags that decide a job's requests, as its identity
// takes them: not how it runs or prints.
func (j *jobSpec) idFlags() []string {
	skip := map[string]bool{"from": true, "parallel": true, "report": true, "failed": true, "restart": true, "dry-run": true, "yes": true,
		"delimiter": true} // a file read right either way sends the same; read wrong, it fails the check
	var out []string
	j.cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if f.Changed && !skip[f.Name] {
			out = append(out, "--"+f.Name+"="+f.Value.String())
		}
	})
	for i, a := range j.base.Args {
		out = append(out, "arg"+strconv.Itoa(i)+"="+a)
	}
	sort.Strings(out)
	return out
}
