package engine

import (
	"context"
	"fmt"
	"sort"

	"github.com/orgctl/orgctl/client/published"
	"github.com/orgctl/orgctl/client/spec"
	"github.com/orgctl/orgctl/cmd/cli"
)

// oldestDescribed is the oldest API version orgctl knows a description of
// (the 3.334 release's): what it has, every instance orgctl supports has,
// so a call of it reads no instance description and costs nothing more.
const oldestDescribed = "2.12.0"

// newer is what a call uses that is newer than oldestDescribed: its
// endpoint, or a query parameter the call sends; "" for nothing.
type newer struct {
	what  string // "POST /api/v2/users/{userId}/logout", "GET /api/v2/apps?using_resource="
	since string // the first API version that has it
	param string // the query parameter, when it is one
}

// newerThanOldest is the first thing the call uses that instances older
// than the latest description may lack, or nil.
func newerThanOldest(c *Call) *newer {
	op := spec.Find(c.Op.Method, c.Op.Path)
	if op == nil || op.Unpublished {
		return nil
	}
	endpoint := fmt.Sprintf("%s /api/v2%s", op.Method, op.Path)
	if op.Since != "" && cli.VersionBefore(oldestDescribed, op.Since) {
		return &newer{what: endpoint, since: op.Since}
	}
	var params []string
	for k := range c.Req.Query {
		params = append(params, k)
	}
	sort.Strings(params)
	for _, k := range params {
		if v := op.QueryValue(k); v != nil && v.Since != "" && cli.VersionBefore(oldestDescribed, v.Since) {
			return &newer{what: endpoint + "?" + k + "=", since: v.Since, param: k}
		}
	}
	return nil
}

// gate is the version check of a call, before anything is sent: a call
// that uses an endpoint or a query parameter newer than the oldest known
// description reads the instance's own description (once per run) and is
// refused (exit 2) when the instance lacks it. note is what a dry run
// says of the check; "" when there was none. An instance that serves no
// description is used as without the check.
func (e *Engine) gate(ctx context.Context, c *Call) (note string, err error) {
	n := newerThanOldest(c)
	if n == nil {
		return "", nil
	}
	desc, err := e.f.Described(ctx)
	if err != nil {
		e.f.IO.Warn("%v; sending as if it had %s", err, n.what)
		return "", nil
	}
	unchecked := fmt.Sprintf("%s is new in API %s; this instance serves no API description, so it is sent unchecked", n.what, spec.VersionText(n.since))
	if desc == nil {
		return unchecked, nil
	}
	has := func(d *published.Description) bool {
		if !d.Has(c.Op.Method, c.Op.Path) {
			return false
		}
		return n.param == "" || d.HasQuery(c.Op.Method, c.Op.Path, n.param)
	}
	if !has(desc) {
		// Refused only by what the instance serves now, not by a cached
		// reading from before an upgrade.
		if fresh, err := e.f.FreshDescribed(ctx); err == nil {
			if fresh == nil {
				return unchecked, nil
			}
			desc = fresh
		}
	}
	if !has(desc) {
		return "", cli.UsageErrorf("%s: this instance's API is %s, which has no %s; it was added in API %s. Nothing was sent.",
			c.Command, spec.VersionText(desc.Version), n.what, spec.VersionText(n.since))
	}
	return fmt.Sprintf("%s is new in API %s; this instance's API is %s, which has it", n.what, spec.VersionText(n.since), spec.VersionText(desc.Version)), nil
}
