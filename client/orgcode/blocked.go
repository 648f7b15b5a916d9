package orgcode

import (
	"fmt"
	"strings"

	"github.com/orgctl/orgctl/client/kinds"
)

// Blocked is one field of a change that the org cannot take yet: it needs
// an object the org lacks and this API cannot create. Apps reach a Space
// through source control (the API only clones them), so a grant on an app,
// or a landing page, promoted from another Space waits for its app; the
// rest of the plan goes ahead without it.
type Blocked struct {
	Kind  string `json:"kind"`
	Key   string `json:"key"`
	Field string `json:"field"`
	New   any    `json:"new"`
	// Needs names what is missing: `app "Refund Console"`.
	Needs  string `json:"needs"`
	Reason string `json:"reason"`
}

// uncreatable names what a reference to key of kind ref needs when the org
// lacks it and neither the files nor this API can make it ("" when the
// reference is not of that sort or the object is there).
func uncreatable(l *Live, ref, key string) (needs, reason string) {
	switch ref {
	case "apps":
		if l.Exists("apps", key) {
			return "", ""
		}
		return fmt.Sprintf("app %q", key), "this org has no such app, and apps reach an org through source control or a clone, not this API"
	case "folders":
		typ, _, ok := splitFolder(key)
		if !ok || kinds.CreatableFolderType(typ) || l.Exists("folders", key) {
			return "", ""
		}
		if _, ok := l.SystemFolders[key]; ok {
			return "", ""
		}
		return fmt.Sprintf("folder %q", key), fmt.Sprintf("this org has no such folder, and the API creates no %s folders", typ)
	}
	return "", ""
}

// add adds c to the plan, less its blocked fields.
func (p *Plan) add(c Change, l *Live) {
	b, keep := block(&c, l)
	p.Blocked = append(p.Blocked, b...)
	if keep {
		p.Changes = append(p.Changes, c)
	}
}

// block takes from c the field changes that need what the org lacks and
// this API cannot create, and returns them; c's desired document loses
// them too, so that no step asks for them. keep is false when nothing of
// c is left to send.
func block(c *Change, l *Live) (out []Blocked, keep bool) {
	k := KindNamed(c.Kind)
	var left []FieldChange
	var strip [][2]string // field, map entry ("" for the whole field)
	for _, fc := range c.Fields {
		name, entry, isEntry := strings.Cut(fc.Field, ".")
		fd := k.field(name)
		ref := ""
		switch {
		case !fc.HasNew || fd == nil:
		case isEntry && fd.Type == tLevelMap:
			ref = entry
		case !isEntry && fd.Type == tRef:
			ref, _ = fc.New.(string)
		}
		if ref != "" {
			if needs, why := uncreatable(l, fd.Ref, ref); needs != "" {
				out = append(out, Blocked{Kind: c.Kind, Key: c.Key, Field: fc.Field, New: fc.New, Needs: needs, Reason: why})
				strip = append(strip, [2]string{name, entry})
				continue
			}
		}
		left = append(left, fc)
	}
	if len(out) == 0 {
		return nil, true
	}
	c.Fields = left
	if c.doc != nil {
		d := *c.doc
		d.Fields = make(map[string]any, len(c.doc.Fields))
		for n, v := range c.doc.Fields {
			d.Fields[n] = v
		}
		for _, s := range strip {
			if s[1] == "" {
				delete(d.Fields, s[0])
				continue
			}
			m, _ := d.Fields[s[0]].(map[string]any)
			cp := make(map[string]any, len(m))
			for e, v := range m {
				if e != s[1] {
					cp[e] = v
				}
			}
			d.Fields[s[0]] = cp
		}
		c.doc = &d
	}
	// A create still makes its object (a group without its landing page);
	// an update, or a subject's grants, with nothing left is no change.
	keep = len(left) > 0 || c.Action == Create && c.Kind != "grants"
	return out, keep
}
