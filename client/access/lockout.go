package access

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/request"
	"github.com/orgctl/orgctl/output/jsonscan"
)

// TakesAdmin is the user a request would take an active admin's standing
// from, by the id its path names ("" for none): DELETE /users/{id}, and a
// JSON Patch of /users/{id} that sets active or is_admin to false. Every
// command that sends such a request (users disable, delete, update
// --admin=false or --active=false, a --body patch, a row of --from) is
// caught by this one test of the request, however it was built.
func TakesAdmin(r request.Request) string {
	rest, ok := strings.CutPrefix(r.Path, "/users/")
	if !ok || rest == "" || strings.Contains(rest, "/") {
		return ""
	}
	id, err := url.PathUnescape(rest)
	if err != nil {
		return ""
	}
	switch r.Method {
	case http.MethodDelete:
		return id
	case http.MethodPatch:
		if patchTakesAdmin(r.Body) {
			return id
		}
	}
	return ""
}

// patchTakesAdmin: the body's operations replace (or add) /active or
// /is_admin with false, or remove either.
func patchTakesAdmin(body any) bool {
	var raw []byte
	switch b := body.(type) {
	case nil:
		return false
	case []byte:
		raw = b
	case json.RawMessage:
		raw = b
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			return false
		}
	}
	var p struct {
		Operations []struct {
			Op    string          `json:"op"`
			Path  string          `json:"path"`
			Value json.RawMessage `json:"value"`
		} `json:"operations"`
	}
	if json.Unmarshal(raw, &p) != nil {
		return false
	}
	for _, o := range p.Operations {
		if o.Path != "/active" && o.Path != "/is_admin" {
			continue
		}
		switch strings.ToLower(o.Op) {
		case "remove":
			return true
		case "replace", "add":
			if v := strings.Trim(strings.ToLower(jsonscan.AsText(o.Value)), `"`); v == "false" || v == "" {
				return true
			}
		}
	}
	return false
}

// RefuseLosingAdmins says why a change that takes from users their standing
// as active admins (offboarding, disabling, deleting or demoting them) must
// not start, or nil when it may: one of them is the token's own user
// (owner, a legacy id; "" when unknown), whose token would stop working or
// lose its rights halfway, or together they are every active admin the org
// has, which would leave nobody to administer it. verb says what the change
// does ("offboard", "disable", "demote").
func (o *Org) RefuseLosingAdmins(verb string, users []*User, owner string) error {
	if err := o.refuseLosingAdmins(verb, users, owner); err != nil {
		return &LockoutError{err}
	}
	return nil
}

// LockoutError is RefuseLosingAdmins's refusal, told from a failed read.
type LockoutError struct{ Err error }

func (e *LockoutError) Error() string { return e.Err.Error() }
func (e *LockoutError) Unwrap() error { return e.Err }

func (o *Org) refuseLosingAdmins(verb string, users []*User, owner string) error {
	leaving := map[string]bool{}
	for _, u := range users {
		leaving[u.ID] = true
		if owner != "" && jsonscan.AsText(u.LegacyID) == owner {
			return fmt.Errorf("refusing to %s %s: the API token in use is this user's; %s them with another admin's token (nothing was changed)", verb, u.Email, verb)
		}
	}
	var admins []string
	for i := range o.Users {
		u := &o.Users[i]
		if !u.Active || !u.IsAdmin {
			continue
		}
		if !leaving[u.ID] {
			return nil
		}
		admins = append(admins, u.Email)
	}
	if len(admins) == 0 {
		return nil
	}
	if len(admins) == 1 {
		return fmt.Errorf("refusing to %s %s: the org's last active admin; make another user an admin first (nothing was changed)", verb, admins[0])
	}
	return fmt.Errorf("refusing to %s %s: the org's last active admins; keep one, or make another user an admin first (nothing was changed)", verb, strings.Join(admins, ", "))
}

// RefuseLockout reads what RefuseLosingAdmins needs for the users a change
// would take an active admin's standing from (ids), and applies it: the
// org's users (one read), and the token's owner only when one of them is
// an active admin (only admins create tokens). verb is as for
// RefuseLosingAdmins. A read that fails refuses the change too (not a
// *LockoutError: the read's own error, wrapped), since without it nothing
// says the change leaves the org an admin.
func RefuseLockout(ctx context.Context, cl *client.Client, token, verb string, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	org := NewOrg(cl)
	if err := org.LoadUsers(ctx); err != nil {
		return fmt.Errorf("refusing to %s user %s: cannot read the org's users to tell whether an active admin would remain (%w); try again (nothing was changed)",
			verb, strings.Join(ids, ", "), err)
	}
	var users []*User
	admin := false
	for _, id := range ids {
		u := org.userByID[id]
		if u == nil {
			continue // not found: the request itself will say so
		}
		users = append(users, u)
		admin = admin || (u.Active && u.IsAdmin)
	}
	if !admin {
		return nil
	}
	owner, err := TokenOwner(ctx, cl, token)
	if err != nil {
		return OwnerUnknown(verb, users, err)
	}
	return org.RefuseLosingAdmins(verb, users, owner)
}

// OwnerUnknown refuses a change that takes admins' standing (verb, as for
// RefuseLosingAdmins) when the token's owner could not be established
// (err, TokenOwner's): the token may be one of theirs, and would stop
// working halfway.
func OwnerUnknown(verb string, users []*User, err error) error {
	emails := make([]string, 0, len(users))
	for _, u := range users {
		if u.IsAdmin {
			emails = append(emails, u.Email)
		}
	}
	whose := "this user's"
	if len(emails) > 1 {
		whose = "one of theirs"
	}
	return fmt.Errorf("refusing to %s %s: %w, and it may be %s; try again, or use a token that may read access tokens (access_tokens:read) (nothing was changed)",
		verb, strings.Join(emails, ", "), err, whose)
}
