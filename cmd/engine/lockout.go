package engine

import (
	"context"

	"github.com/orgctl/orgctl/client/access"
	"github.com/orgctl/orgctl/client/resolve"
	"github.com/orgctl/orgctl/cmd/cli"
)

// refuseLockout is the check, once names are ids, that a write does not
// take the org's last active admin (or the token's own user) out of
// office: disabling, deleting or demoting them would leave nobody, or not
// this token, to administer the org. The rule, and the test of which
// requests do so, are client/access's (users offboard and apply use them
// too). A read that fails refuses the write as well: not knowing who
// would be left to administer the org is no reason to go ahead.
func (e *Engine) refuseLockout(ctx context.Context, c *Call, found map[string]resolve.Object) error {
	req := c.Request()
	id := access.TakesAdmin(req)
	if id == "" || notActiveAdmin(id, found) {
		return nil
	}
	conn, err := e.f.Connection()
	if err != nil {
		return err
	}
	cl, err := e.apiClient()
	if err != nil {
		return err
	}
	verb := "disable"
	switch {
	case req.Method == "DELETE":
		verb = "delete"
	case c.Op.Name() == "update" && !activeFalse(c):
		verb = "demote"
	}
	if err := access.RefuseLockout(ctx, cl, conn.Target.Token, verb, []string{id}); err != nil {
		if _, refused := err.(*access.LockoutError); refused {
			return &cli.UsageError{Err: err}
		}
		return err
	}
	return nil
}

// notActiveAdmin: the lookup that found the user by name listed them as
// disabled or not an admin, so the write takes nothing from the org (and
// the user holds no token): no read is needed to allow it.
func notActiveAdmin(id string, found map[string]resolve.Object) bool {
	for _, o := range found {
		if o.ID != id || o.Fields == nil {
			continue
		}
		active, ok1 := o.Fields["active"].(bool)
		admin, ok2 := o.Fields["is_admin"].(bool)
		return ok1 && ok2 && !(active && admin)
	}
	return false
}

// activeFalse: the call's patch disables the user (rather than demoting).
func activeFalse(c *Call) bool {
	for _, o := range c.Req.Patch {
		if m, ok := o.(map[string]any); ok && m["path"] == "/active" {
			return true
		}
	}
	return false
}
