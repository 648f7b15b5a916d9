package opdef

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/orgctl/orgctl/client/request"
)

// Bind puts the ids that lookups found where the build placed the
// stand-ins for names (ids maps each stand-in to its id): in the path's
// parameters, the query, the body, the patch, the local options, the reads
// and the follow-ups. A call is so built and checked once, with stand-ins
// that have the shape of ids, and sent with the ids: nothing is built
// twice. A stand-in is a value of its own (an element of a list, a path
// segment, a part of a comma-separated text), never a part of other text.
func (c *Call) Bind(ids map[string]string) {
	if len(ids) == 0 {
		return
	}
	b := binder(ids)
	for k, v := range c.Req.Params {
		c.Req.Params[k] = b.text(v)
	}
	b.query(c.Req.Query)
	if c.Req.Body != nil {
		b.value(c.Req.Body)
	}
	for i := range c.Req.Patch {
		c.Req.Patch[i] = b.value(c.Req.Patch[i])
	}
	for k, v := range c.Given.Local {
		c.Given.Local[k] = b.value(v)
	}
	if c.Summary != nil {
		b.value(c.Summary)
	}
	if c.Req.RawBody != nil && c.Req.ContentType == "" {
		c.Req.RawBody = b.json(c.Req.RawBody)
	}
	for i := range c.Reads {
		c.Reads[i] = b.request(c.Reads[i])
	}
	for i := range c.Then {
		c.Then[i] = b.followUp(c.Then[i])
	}
	for i, w := range c.Warnings {
		c.Warnings[i] = b.prose(w)
	}
}

// binder maps stand-ins to ids.
type binder map[string]string

// text is s with a stand-in replaced: s whole, or one of its
// comma-separated parts (a list joined into one value).
func (b binder) text(s string) string {
	if id, ok := b[s]; ok {
		return id
	}
	if !strings.Contains(s, ",") {
		return s
	}
	parts := strings.Split(s, ",")
	for i, p := range parts {
		if id, ok := b[strings.TrimSpace(p)]; ok {
			parts[i] = strings.Replace(p, strings.TrimSpace(p), id, 1)
		}
	}
	return strings.Join(parts, ",")
}

// value replaces stand-ins in a JSON value, in place where it can: a
// number stays a number of the same type.
func (b binder) value(v any) any {
	switch t := v.(type) {
	case string:
		return b.text(t)
	case map[string]any:
		for k, e := range t {
			t[k] = b.value(e)
		}
	case []any:
		for i, e := range t {
			t[i] = b.value(e)
		}
	case []string:
		for i, e := range t {
			t[i] = b.text(e)
		}
	case []map[string]any:
		for _, e := range t {
			b.value(e)
		}
	case json.Number, int64, int, uint64, float64:
		return b.number(t)
	}
	return v
}

// number is a number that was a stand-in as the id, in the number's own
// type where the id parses as one.
func (b binder) number(v any) any {
	text := fmt.Sprint(v)
	if f, isFloat := v.(float64); isFloat {
		text = strconv.FormatFloat(f, 'f', -1, 64) // as JSON spells it, not 9e+08
	}
	id, ok := b[text]
	if !ok {
		return v
	}
	var n any
	var err error
	switch v.(type) {
	case json.Number:
		return json.Number(id)
	case int64:
		n, err = strconv.ParseInt(id, 10, 64)
	case int:
		n, err = strconv.Atoi(id)
	case uint64:
		n, err = strconv.ParseUint(id, 10, 64)
	case float64:
		n, err = strconv.ParseFloat(id, 64)
	}
	if err != nil {
		return id
	}
	return n
}

func (b binder) query(q map[string][]string) {
	for _, vs := range q {
		for i, v := range vs {
			vs[i] = b.text(v)
		}
	}
}

// path replaces stand-ins that are whole segments of an escaped path,
// escaping the ids as request.Path does.
func (b binder) path(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if id, ok := b[s]; ok {
			segs[i] = strings.TrimPrefix(request.Path(id), "/")
		}
	}
	return strings.Join(segs, "/")
}

// json replaces stand-ins that are whole JSON strings of a raw body.
func (b binder) json(raw []byte) []byte {
	for stand, id := range b {
		q, _ := json.Marshal(id)
		raw = bytes.ReplaceAll(raw, []byte(strconv.Quote(stand)), q)
	}
	return raw
}

func (b binder) request(r request.Request) request.Request {
	r.Path = b.path(r.Path)
	b.query(r.Query)
	if r.Body != nil {
		r.Body = b.value(r.Body)
	}
	return r
}

// followUp binds what a follow-up builds from the answer, when it is built.
func (b binder) followUp(f FollowUp) FollowUp {
	f.JoinKey = b.text(f.JoinKey)
	f.What = b.prose(f.What)
	f.Joined = b.prose(f.Joined)
	if build := f.Build; build != nil {
		f.Build = func(answer json.RawMessage) (request.Request, error) {
			r, err := build(answer)
			if err != nil {
				return r, &boundError{msg: b.prose(err.Error()), err: err}
			}
			return b.request(r), nil
		}
	}
	return f
}

// prose replaces stand-ins anywhere in a message: they are never words.
func (b binder) prose(s string) string {
	for stand, id := range b {
		s = strings.ReplaceAll(s, stand, id)
	}
	return s
}

// boundError is an error whose message names ids where it named stand-ins.
type boundError struct {
	msg string
	err error
}

func (e *boundError) Error() string { return e.msg }
func (e *boundError) Unwrap() error { return e.err }
