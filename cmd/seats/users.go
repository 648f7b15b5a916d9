package seats

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/output/jsonscan"
)

// user is a user as GET /users gives it: the fields the seat commands
// read, and the record whole, which -o json prints as received.
type user struct {
	ID, Email, First, Last string
	Active, Admin          bool
	// LastActive is nil for a user who never signed in.
	LastActive *time.Time
	Seat       string
	LegacyID   string
	raw        map[string]json.RawMessage
}

// readUsers reads every user: one GET /users, and its next pages when
// the API pages it.
func readUsers(ctx context.Context, cl *client.Client) ([]*user, error) {
	var out []*user
	err := cl.Pages(ctx, client.Request{Method: http.MethodGet, Path: "/users", Scope: "Users > Read"}, func(r *client.Response) error {
		var recs []map[string]json.RawMessage
		if err := json.Unmarshal(r.Data, &recs); err != nil {
			return fmt.Errorf("GET /users: unexpected answer: %w", err)
		}
		for _, rec := range recs {
			out = append(out, decodeUser(rec))
		}
		return nil
	})
	return out, err
}

func decodeUser(rec map[string]json.RawMessage) *user {
	u := &user{raw: rec}
	str := func(k string) string {
		var s string
		json.Unmarshal(rec[k], &s)
		return s
	}
	u.ID, u.Email, u.First, u.Last, u.Seat = str("id"), str("email"), str("first_name"), str("last_name"), str("seat_type")
	json.Unmarshal(rec["active"], &u.Active)
	json.Unmarshal(rec["is_admin"], &u.Admin)
	u.LegacyID = jsonscan.AsText(rec["legacy_id"])
	if s := str("last_active"); s != "" {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			u.LastActive = &t
		}
	}
	return u
}

// staleness is the rule both inactive and reclaim apply.
type staleness struct {
	Days  int
	Never bool
	Now   time.Time
}

// stale: active, and never signed in or (without Never) not for Days.
func (s staleness) stale(u *user) bool {
	if !u.Active {
		return false
	}
	if u.LastActive == nil {
		return true
	}
	return !s.Never && s.Now.Sub(*u.LastActive) > time.Duration(s.Days)*24*time.Hour
}

// since is the first day of the window the usage reports are read for.
func (s staleness) since() string { return s.Now.AddDate(0, 0, -s.Days).UTC().Format("2006-01-02") }

func checkDays(days int) error {
	if days < 1 {
		return cli.UsageErrorf("--days %d: give the number of days without a sign-in, 1 or more (for example --days 90)", days)
	}
	return nil
}

// lastActiveColumn shows when a user last signed in: on a terminal the
// date and how long ago, piped the time as RFC 3339; "never" for none.
func lastActiveColumn(tty bool, now time.Time) output.Column {
	return output.Column{Header: "LAST ACTIVE", Value: func(rec map[string]any) string {
		s, _ := rec["last_active"].(string)
		t, err := time.Parse(time.RFC3339Nano, s)
		switch {
		case s == "":
			return "never"
		case err != nil:
			return s
		case tty:
			return t.UTC().Format("2006-01-02") + " (" + output.Relative(t, now) + ")"
		}
		return t.UTC().Format(time.RFC3339)
	}}
}

// usageCounts are views and saves per user (lower-cased email) in a window.
type usageCounts map[string][2]float64

// readUsage reads GET /usage/user_summary once for the window from since
// to today.
func readUsage(ctx context.Context, cl *client.Client, since string, now time.Time) (usageCounts, error) {
	q := url.Values{"start_date": {since}, "end_date": {now.UTC().Format("2006-01-02")}}
	r, err := cl.Do(ctx, client.Request{Method: http.MethodGet, Path: "/usage/user_summary", Query: q, Scope: "usage"})
	if err != nil {
		return nil, err
	}
	var rows []struct {
		Email string  `json:"email"`
		Views float64 `json:"count_app_views"`
		Saves float64 `json:"count_app_saves"`
	}
	if err := json.Unmarshal(r.Data, &rows); err != nil {
		return nil, fmt.Errorf("GET /usage/user_summary: unexpected answer: %w", err)
	}
	out := usageCounts{}
	for _, row := range rows {
		k := strings.ToLower(row.Email)
		c := out[k]
		out[k] = [2]float64{c[0] + row.Views, c[1] + row.Saves}
	}
	return out, nil
}
