package bulkjob

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/access"
	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/client/resolve"
	"github.com/orgctl/orgctl/output/jsonscan"
)

// Lookups are the reads a bulk job shares between its rows (the list of
// groups with their members, each object's access list, each subject's
// direct grants), each read once per job: opdef.Lookups on the client. A
// single command line's look before a change (Existence.Already) uses them
// too.
type Lookups struct {
	client *client.Client
	truth  *resolve.Resolver
	// bySubject: Check reads subjects' direct grants, not objects' access lists.
	bySubject bool
	mu        sync.Mutex
	m         map[string]*sharedRead
}

// NewLookups reads through cl; truth is the resolver whose lists of groups
// it reads (never a cache's); bySubject reads subjects' direct grants
// rather than objects' access lists.
func NewLookups(cl *client.Client, truth *resolve.Resolver, bySubject bool) *Lookups {
	return &Lookups{client: cl, truth: truth, bySubject: bySubject}
}

// BySubject implements opdef.Lookups.
func (lk *Lookups) BySubject() bool { return lk.bySubject }

type sharedRead struct {
	once sync.Once
	set  map[string]string
	err  error
}

func (lk *Lookups) read(ctx context.Context, key string, fetch func(cl *client.Client) (map[string]string, error)) (map[string]string, error) {
	lk.mu.Lock()
	if lk.m == nil {
		lk.m = map[string]*sharedRead{}
	}
	r := lk.m[key]
	if r == nil {
		r = &sharedRead{}
		lk.m[key] = r
	}
	lk.mu.Unlock()
	r.once.Do(func() {
		r.set, r.err = fetch(lk.client)
	})
	if r.err != nil {
		lk.mu.Lock()
		if lk.m[key] == r {
			delete(lk.m, key) // a failed read is tried again by the next row
		}
		lk.mu.Unlock()
	}
	return r.set, r.err
}

// Members is the set of a group's member ids (to "member", or "admin"
// for a group admin), from the
// list of groups, worked out once per group.
func (lk *Lookups) Members(ctx context.Context, group string) (map[string]string, error) {
	set, err := lk.read(ctx, "members of "+group, func(*client.Client) (map[string]string, error) {
		groups, err := lk.truth.All(ctx, kinds.Of("groups"))
		if err != nil {
			return nil, err
		}
		out := map[string]string{}
		for _, g := range groups {
			if g.ID != group {
				continue
			}
			ms, _ := g.Fields["members"].([]any)
			for _, m := range ms {
				if mm, ok := m.(map[string]any); ok {
					out[jsonscan.AsText(mm["id"])] = "member"
					if admin, _ := mm["is_group_admin"].(bool); admin {
						out[jsonscan.AsText(mm["id"])] = "admin"
					}
				}
			}
		}
		return out, nil
	})
	return set, err
}

// Access maps "group/ID" and "user/ID" to the access level each subject
// has on an object directly (not through a group or a universal level).
func (lk *Lookups) Access(ctx context.Context, typ, id string) (map[string]string, error) {
	return lk.read(ctx, "access "+typ+"/"+id, func(cl *client.Client) (map[string]string, error) {
		resp, err := cl.Do(ctx, client.Request{Method: http.MethodGet, Path: client.Path("permissions", "accessList", typ, id),
			Scope: "Permissions > Read"})
		if err != nil {
			return nil, err
		}
		lists, err := access.DecodeAccessList(resp.Data)
		if err != nil {
			return nil, fmt.Errorf("GET access list of %s %s: %w", typ, id, err)
		}
		out := map[string]string{}
		for kind, entries := range lists {
			for _, e := range entries {
				if !e.Sources.Direct {
					continue
				}
				t := e.Subject.Type
				if t == "" {
					t = kind
				}
				out[t+"/"+e.SubjectID()] = e.AccessLevel
			}
		}
		return out, nil
	})
}

// Direct maps the ids of the objects of typ a subject has a grant on
// itself to the level it gives: one POST /permissions/listObjects without
// include_inherited_access, read once per job.
func (lk *Lookups) Direct(ctx context.Context, subj map[string]any, typ string) (map[string]string, error) {
	key := "direct " + jsonscan.AsText(subj["type"]) + "/" + jsonscan.AsText(subj["id"]) + "/" + typ
	return lk.read(ctx, key, func(cl *client.Client) (map[string]string, error) {
		resp, err := cl.Do(ctx, client.Request{Method: http.MethodPost, Path: "/permissions/listObjects", Scope: "Permissions > Read",
			Body: map[string]any{"subject": subj, "object_type": typ}})
		if err != nil {
			return nil, err
		}
		var items []struct {
			ID    any    `json:"id"`
			Level string `json:"access_level"`
		}
		if err := json.Unmarshal(resp.Data, &items); err != nil {
			return nil, fmt.Errorf("POST /permissions/listObjects: %w", err)
		}
		out := make(map[string]string, len(items))
		for _, it := range items {
			out[jsonscan.AsText(it.ID)] = it.Level
		}
		return out, nil
	})
}
