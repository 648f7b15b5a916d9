package output

import (
	"fmt"
	"strings"
	"time"

	"github.com/orgctl/orgctl/output/jsonscan"
)

// Relative says how far t is from now the way people say it: "in 23s",
// "5 minutes ago", "3 days ago". Terminals show times so; piped output
// keeps RFC 3339, which scripts can parse.
func Relative(t, now time.Time) string {
	d := t.Sub(now)
	if d > -time.Second && d < time.Second {
		return "now"
	}
	if d > 0 {
		return "in " + Span(d)
	}
	return Span(-d) + " ago"
}

// Span is a duration in its largest whole unit: "23s", "1 minute",
// "3 days", "2 years". Below a minute it keeps seconds short, as waits are
// read at a glance.
func Span(d time.Duration) string {
	if d < 0 {
		d = -d
	}
	const day = 24 * time.Hour
	unit := func(n int64, name string) string {
		if n == 1 {
			return "1 " + name
		}
		return fmt.Sprintf("%d %ss", n, name)
	}
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int64(d.Round(time.Second)/time.Second))
	case d < time.Hour:
		return unit(int64(d/time.Minute), "minute")
	case d < day:
		return unit(int64(d/time.Hour), "hour")
	case d < 30*day:
		return unit(int64(d/day), "day")
	case d < 365*day:
		return unit(int64(d/(30*day)), "month")
	}
	return unit(int64(d/(365*day)), "year")
}

// ParseTime reads the timestamps the API sends (RFC 3339, with or without
// fractions); ok is false for any other text.
func ParseTime(s string) (time.Time, bool) {
	if len(s) < len("2006-01-02T15:04:05Z") || s[4] != '-' || (s[10] != 'T' && s[10] != 't') {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	return t, err == nil
}

// timeColumn reports a column whose values may be timestamps, by its
// field's name, so only those cells pay for the check.
func timeColumn(c Column) bool {
	if c.Value != nil || c.Field == "" {
		return false
	}
	name := c.Field[strings.LastIndex(c.Field, ".")+1:]
	return strings.HasSuffix(name, "_at") || strings.HasSuffix(name, "_time") || name == "last_active" ||
		name == "updated" || name == "created" || strings.HasSuffix(name, "_date") || name == "timestamp"
}

// relativeTimes shows the timestamps of time columns relative to now, for
// the terminal table; other text in those columns is left as it is.
func relativeTimes(cols []Column, now time.Time) []Column {
	var out []Column
	for i, c := range cols {
		if !timeColumn(c) {
			continue
		}
		if out == nil {
			out = append([]Column(nil), cols...)
		}
		field := c.Field
		out[i].Value = func(rec map[string]any) string {
			v := Lookup(rec, field)
			if s, ok := v.(string); ok {
				if t, ok := ParseTime(s); ok {
					return Relative(t, now)
				}
			}
			return jsonscan.AsText(v)
		}
	}
	if out == nil {
		return cols
	}
	return out
}
