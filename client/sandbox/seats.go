package sandbox

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"
)

// Sign-ins and app usage: when users last signed in (last_active), the seat
// each holds (seat_type) and what they viewed and edited, so that reports
// on stale accounts and unused access have something true to find.
//
// The history is laid out backwards from the moment the sandbox is made
// (Options.Now), not from the demo's fixed timestamps: "not seen for 90
// days" must mean the same on the day a test runs as on any other.

// usageEvents is the collection of activity: one object per user, app and
// day, {email, user_id, app, day, views, saves}. It is no API route.
const usageEvents = "usage:events"

// day is one calendar day in the usage reports' form.
func day(t time.Time) string { return t.UTC().Format("2006-01-02") }

// signIn sets a user's last sign-in without the Drafts the live service
// makes at a first sign-in: the history is made up, and a load org of
// thousands stays one folder list long (see the package doc).
func signIn(u obj, at time.Time) { u["last_active"] = stamp(at) }

// seatFor is the seat a user holds: admins build; the rest are internal
// users unless the address is a partner's.
func seatFor(email string, admin bool) string {
	switch {
	case admin:
		return "builder"
	case strings.HasSuffix(strings.ToLower(email), "@partner.example"):
		return "externalUser"
	}
	return "internalUser"
}

// view records views and saves of an app by a user on a day.
func (o *org) view(u obj, app string, at time.Time, views, saves int) {
	o.Collections[usageEvents] = append(o.Collections[usageEvents], obj{"email": u["email"], "user_id": u["id"],
		"app": app, "day": day(at), "views": float64(views), "saves": float64(saves)})
}

// seedDemoHistory gives the demo users a past: the admin signed in
// yesterday and works on both apps; dev.lee (a builder, editor of Refund
// Console directly and through the editor group) signed in 12 days ago and
// only ever viewed it; ana.viewer (viewer of the Operations folder) last
// came 200 days ago; priya.ops, an admin, never signed in; the disabled
// former.employee, an external seat, last came 300 days ago.
func seedDemoHistory(o *org, now time.Time) {
	d := func(n int) time.Time { return now.Add(-time.Duration(n)*24*time.Hour - 3*time.Hour) }
	for _, u := range o.Collections["/users"] {
		u["seat_type"] = seatFor(fmt.Sprint(u["email"]), u["is_admin"] == true)
	}
	if u := o.userByEmail("former.employee@sandbox.example"); u != nil {
		u["seat_type"] = "externalUser"
		signIn(u, d(300))
		o.view(u, "Customer Lookup", d(300), 4, 0)
	}
	if u := o.userByEmail("dev.lee@sandbox.example"); u != nil {
		u["seat_type"] = "builder"
		signIn(u, d(12))
		o.view(u, "Refund Console", d(40), 6, 0)
		o.view(u, "Refund Console", d(12), 3, 0)
		o.view(u, "Customer Lookup", d(12), 2, 0)
	}
	if u := o.userByEmail("ana.viewer@sandbox.example"); u != nil {
		signIn(u, d(200))
		o.view(u, "Customer Lookup", d(200), 5, 0)
	}
	if u := o.userByEmail(primaryAdminEmail); u != nil {
		signIn(u, d(1))
		o.view(u, "Customer Lookup", d(30), 9, 0)
		o.view(u, "Refund Console", d(1), 4, 2)
	}
}

// seedLoadHistory spreads the synthetic users' last sign-in over the 400
// days before now: user n of N last came n*400/N days ago, except every
// tenth, who never signed in. Every fifth holds a builder seat and every
// seventh an external one. With groups and folders, two in three of those
// who signed in viewed their group's app that day.
func seedLoadHistory(o *org, now time.Time, n, groups, folders int) {
	if n <= 0 {
		return
	}
	apps := o.Collections["/apps"]
	for _, u := range o.Collections["/users"] {
		email, _ := u["email"].(string)
		var i int
		if _, err := fmt.Sscanf(email, "user%06d@load.example", &i); err != nil {
			continue
		}
		switch {
		case i%5 == 0:
			u["seat_type"] = "builder"
		case i%7 == 0:
			u["seat_type"] = "externalUser"
		default:
			u["seat_type"] = "internalUser"
		}
		if i%10 == 0 {
			continue
		}
		at := now.Add(-time.Duration(i*400*24*60/n) * time.Minute) // in minutes: i*400 days in nanoseconds overflows
		signIn(u, at)
		if groups > 0 && folders > 0 && i%3 != 0 {
			// load-app-k sits in load-folder-k, which group g is granted when g%folders == k
			if k := (i % groups) % folders; k < len(apps) {
				o.view(u, fmt.Sprint(apps[len(apps)-folders+k]["name"]), at, 1+i%4, 0)
			}
		}
	}
}

// window is a usage report's date range: start_date, and end_date or
// start_date + 30 days, no later than yesterday, as published.
func (c *call) window() (start, end string, ok bool) {
	start = c.q.Get("start_date")
	s, err := time.Parse("2006-01-02", start)
	if start == "" { // required, as published; answered leniently, as the last 30 days
		s, start, err = c.now.AddDate(0, 0, -30), day(c.now.AddDate(0, 0, -30)), nil
	}
	if err != nil {
		return "", "", false
	}
	if end = c.q.Get("end_date"); end == "" {
		e := s.AddDate(0, 0, 30)
		if y := c.now.AddDate(0, 0, -1); y.Before(e) {
			e = y
		}
		end = day(e)
	} else if _, err := time.Parse("2006-01-02", end); err != nil {
		return "", "", false
	}
	return start, end, true
}

// events are the activity in the call's window, oldest first.
func (c *call) events() ([]obj, bool) {
	start, end, ok := c.window()
	if !ok {
		return nil, false
	}
	var out []obj
	for _, e := range c.org.Collections[usageEvents] {
		if d := fmt.Sprint(e["day"]); d >= start && d <= end {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return fmt.Sprint(out[i]["day"]) < fmt.Sprint(out[j]["day"]) })
	return out, true
}

func num(v any) float64 { f, _ := v.(float64); return f }

func (c *call) usageOrg() string {
	if s, _ := c.org.Singletons["/organization"]["id"].(string); s != "" {
		return s
	}
	return "org_primary"
}

func badWindow() obj { return errBody("start_date and end_date must be dates as YYYY-MM-DD") }

// userSummary is GET /usage/user_summary: per user active in the window,
// views, saves and apps used.
func userSummary(c *call) (int, any) {
	evs, ok := c.events()
	if !ok {
		return 400, badWindow()
	}
	type sum struct {
		row  obj
		apps map[string]bool
	}
	by := map[string]*sum{}
	var order []string
	for _, e := range evs {
		email := fmt.Sprint(e["email"])
		s := by[email]
		if s == nil {
			u := c.org.userByEmail(email)
			last := any(nil)
			if u != nil {
				last = u["last_active"]
			}
			s = &sum{row: obj{"org_id": c.usageOrg(), "user_id": e["user_id"], "email": email, "host": c.host,
				"count_app_views": float64(0), "count_app_saves": float64(0), "last_active": last}, apps: map[string]bool{}}
			by[email] = s
			order = append(order, email)
		}
		s.row["count_app_views"] = num(s.row["count_app_views"]) + num(e["views"])
		s.row["count_app_saves"] = num(s.row["count_app_saves"]) + num(e["saves"])
		s.apps[fmt.Sprint(e["app"])] = true
	}
	sort.Strings(order)
	out := []any{}
	for _, email := range order {
		s := by[email]
		s.row["count_unique_apps"] = float64(len(s.apps))
		out = append(out, s.row)
	}
	return 200, obj{"success": true, "data": out}
}

// userDetails is GET /usage/user_details: one user's totals, weeks, and
// views and saves by app.
func userDetails(c *call) (int, any) {
	evs, ok := c.events()
	if !ok {
		return 400, badWindow()
	}
	email := c.q.Get("email")
	var userID any = ""
	if u := c.org.userByEmail(email); u != nil { // an unknown email has no activity: zeros, as published
		userID = u["id"]
	}
	org := c.usageOrg()
	views, saves := 0.0, 0.0
	weeks := map[string][2]float64{}
	viewed, saved := map[string]float64{}, map[string]float64{}
	for _, e := range evs {
		if !strings.EqualFold(fmt.Sprint(e["email"]), email) {
			continue
		}
		v, s := num(e["views"]), num(e["saves"])
		views, saves = views+v, saves+s
		t, _ := time.Parse("2006-01-02", fmt.Sprint(e["day"]))
		wk := day(t.AddDate(0, 0, -int((t.Weekday()+6)%7))) // the Monday
		w := weeks[wk]
		weeks[wk] = [2]float64{w[0] + v, w[1] + s}
		app := fmt.Sprint(e["app"])
		if v > 0 {
			viewed[app] += v
		}
		if s > 0 {
			saved[app] += s
		}
	}
	weekly := []any{}
	for _, wk := range slices.Sorted(maps.Keys(weeks)) {
		weekly = append(weekly, obj{"week": wk, "count_app_views": weeks[wk][0], "count_app_saves": weeks[wk][1]})
	}
	byApp := func(m map[string]float64) []any {
		out := []any{}
		for _, a := range slices.Sorted(maps.Keys(m)) {
			out = append(out, obj{"app_name": a, "org_id": org, "host": c.host, "count": m[a]})
		}
		return out
	}
	return 200, obj{"success": true, "data": obj{
		"overall_summary": []any{obj{"org_id": org, "user_id": userID, "host": c.host, "count_app_views": views, "count_app_saves": saves}},
		"weekly_summary":  []any{obj{"org_id": org, "weekly_data": weekly}},
		"viewer_summary":  byApp(viewed),
		"editor_summary":  byApp(saved),
	}}
}

// appSummary is GET /usage/app_summary: per app used in the window, views,
// saves, and how many viewed and edited it.
func appSummary(c *call) (int, any) {
	evs, ok := c.events()
	if !ok {
		return 400, badWindow()
	}
	type sum struct {
		views, saves     float64
		viewers, editors map[string]bool
	}
	by := map[string]*sum{}
	for _, e := range evs {
		app := fmt.Sprint(e["app"])
		s := by[app]
		if s == nil {
			s = &sum{viewers: map[string]bool{}, editors: map[string]bool{}}
			by[app] = s
		}
		v, sv := num(e["views"]), num(e["saves"])
		s.views, s.saves = s.views+v, s.saves+sv
		if v > 0 {
			s.viewers[fmt.Sprint(e["email"])] = true
		}
		if sv > 0 {
			s.editors[fmt.Sprint(e["email"])] = true
		}
	}
	out := []any{}
	for _, app := range slices.Sorted(maps.Keys(by)) {
		s := by[app]
		out = append(out, obj{"app_name": app, "host": c.host, "count_app_views": s.views, "count_app_saves": s.saves,
			"count_viewers": float64(len(s.viewers)), "count_editors": float64(len(s.editors))})
	}
	return 200, obj{"success": true, "data": out}
}

func addUsageHandlers(m map[string]handler) {
	m["GET /usage/user_summary"] = userSummary
	m["GET /usage/user_details"] = userDetails
	m["GET /usage/app_summary"] = appSummary
}
