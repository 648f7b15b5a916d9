package access

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/orgctl/orgctl/client"
)

// MissingScopesError names every scope a review needs that the token
// lacks, found together so that the admin adds them all at once.
type MissingScopesError struct {
	Scopes []string
	// Later is a scope the review needs after the lists, which it has not
	// tried yet ("" for none).
	Later string
	// First is the first refusal, which says how the API answered (exit
	// codes and hints read it).
	First *client.APIError
}

func (e *MissingScopesError) Unwrap() error { return e.First }

func (e *MissingScopesError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "missing scopes: this command needs a token with the %s scope", quotedList(e.Scopes))
	if len(e.Scopes) > 1 {
		b.WriteString("s")
	}
	b.WriteString(" (HTTP 403)")
	if e.Later != "" {
		fmt.Fprintf(&b, " (the reads that follow need %q too)", e.Later)
	}
	b.WriteString("; add them to the token (or create one with them) and run it again")
	return b.String()
}

func quotedList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// Load reads every list a review names its answers by: users, groups and
// the objects of types, once each. A list the token may not read does not
// stop the others, so that every scope the token lacks is named in one
// *MissingScopesError; later names the scope of the reads that come next
// (the permission answers), which the error mentions too. Any other error
// stops the reads and is returned.
func (o *Org) Load(ctx context.Context, later string, types ...string) error {
	var missing []string
	var first *client.APIError
	try := func(err error) error {
		var ae *client.APIError
		if errors.As(err, &ae) && ae.StatusCode == http.StatusForbidden && ae.Scope != "" {
			missing = append(missing, ae.Scope)
			if first == nil {
				first = ae
			}
			return nil
		}
		return err
	}
	if err := try(o.LoadUsers(ctx)); err != nil {
		return err
	}
	if err := try(o.LoadGroups(ctx)); err != nil {
		return err
	}
	for _, t := range types {
		if err := try(o.LoadObjects(ctx, t)); err != nil {
			return err
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return &MissingScopesError{Scopes: missing, Later: later, First: first}
}
