package access

import (
	"fmt"
	"strings"

	"github.com/orgctl/orgctl/client/access"
	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/cmd/cli"
)

// offboardUsers finds the users to offboard, by email or id. A user
// --from names who is not there is left out with --skip-invalid (and
// written to --failed), else nothing is changed and it exits 3.
func offboardUsers(f *cli.Factory, org *access.Org, o *OffboardOptions) ([]*access.User, map[int]string, error) {
	var users []*access.User
	var emails []string
	failed := map[int]string{}
	o.rowOf = map[string]int{}
	for i, e := range o.Emails {
		u := findUser(org, e)
		if u == nil && o.File != nil && o.File.SkipInvalid() {
			failed[o.Rows[i]] = "no user with this email or id"
			f.IO.Warn("%s: no user with email or id %q: left out (--skip-invalid)", o.File.Name(), e)
			continue
		}
		if u == nil {
			return nil, nil, &cli.NotFoundError{Err: fmt.Errorf("no user with email %q (nothing was changed)", e)}
		}
		if _, twice := o.rowOf[u.ID]; twice {
			continue // by email and by id in one file: one user
		}
		users = append(users, u)
		emails = append(emails, u.Email)
		if o.File != nil {
			o.rowOf[u.ID] = o.Rows[i]
		}
	}
	o.Emails = emails
	if o.File != nil {
		for n, why := range o.File.Invalid {
			failed[n] = "invalid, not sent: " + why
		}
	}
	return users, failed, nil
}

// findUser is the user an email (any case) or an id names.
func findUser(org *access.Org, s string) *access.User {
	if u := org.ByEmail[strings.ToLower(s)]; u != nil {
		return u
	}
	for i := range org.Users {
		if org.Users[i].ID == s {
			return &org.Users[i]
		}
	}
	return nil
}

// alreadyDisabled notes, after the users' names, which of them are
// disabled already (so no step disables them).
func alreadyDisabled(users []*access.User) string {
	var off []string
	for _, u := range users {
		if !u.Active {
			off = append(off, u.Email)
		}
	}
	switch {
	case len(off) == 0:
		return ""
	case len(users) == 1:
		return " (already disabled)"
	}
	return " (" + strings.Join(off, ", ") + " already disabled)"
}

// stepSentence is a step's result as one plain sentence: "Removed from
// group All Users", "Could not revoke edit on app Ops: ..."; with several
// users, a step other than the disable starts with whose step it is.
func stepSentence(s offboardStep, r bulk.Result, many bool) string {
	var line string
	switch r.Outcome {
	case bulk.Failed:
		line = fmt.Sprintf("Could not %s %s: %s", s.verb, s.what, r.Message)
	case bulk.Unknown:
		line = fmt.Sprintf("Sent without an answer, so perhaps done: %s %s (%s)", s.verb, s.what, r.Message)
	default:
		line = stepDone(s.verb) + " " + s.what
	}
	if many && s.verb != "disable" {
		line = s.user + ": " + line
	}
	return line
}

// stepDone is a step's verb in the past tense.
func stepDone(verb string) string {
	switch verb {
	case "disable":
		return "Disabled"
	case "remove":
		return "Removed"
	case "revoke":
		return "Revoked"
	case "end":
		return "Ended"
	}
	return ""
}

// stepResult prints a step's result line on stderr.
func stepResult(f *cli.Factory, s offboardStep, r bulk.Result, many bool) {
	line := stepSentence(s, r, many)
	switch r.Outcome {
	case bulk.Failed, bulk.Unknown:
		f.IO.Warn("%s", line)
	default:
		f.IO.Success("%s", line)
	}
}

// finish writes --failed and gives the exit status: a row of the file
// left out or failed fails the command, as in every --from job.
func (o *OffboardOptions) finish(f *cli.Factory, failed map[int]string, res bulk.Summary) error {
	if o.File != nil {
		if err := o.File.WriteFailed(failed); err != nil {
			f.IO.Warn("%v", err)
		}
	}
	if len(failed) > 0 && res.Counts[bulk.Failed] == 0 {
		if res.Counts == nil {
			res.Counts = bulk.Counts{}
		}
		res.Counts[bulk.Failed] = len(failed)
	}
	return cli.JobExit(res)
}
