package access

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func row(user, active, admin, typ, obj, level, via string) Row {
	return Row{"user": user, "active": active, "admin": admin, "object_type": typ, "object": obj, "level": level, "via": via}
}

// Every kind of change between two reviews is named, with who and what.
func TestReportChangesNamesEveryKind(t *testing.T) {
	prev := []Row{
		row("a@x", "true", "false", "app", "Lookup", "use", "member of support"),
		row("a@x", "true", "false", "app", "Refunds", "edit", "direct"),
		row("b@x", "true", "false", "folder", "app:/Ops", "use", "direct; member of viewer"),
		row("c@x", "true", "false", "", "", "none", ""),
	}
	now := []Row{
		row("a@x", "true", "true", "app", "Lookup", "own", "member of support"),
		row("b@x", "false", "false", "folder", "app:/Ops", "use", "member of viewer"),
		row("c@x", "true", "false", "app", "Refunds", "use", "direct"),
	}
	var got []string
	for _, c := range Changes(prev, now) {
		got = append(got, strings.Join([]string{c["change"], c["user"], c["object_type"], c["object"],
			c["level_before"], c["level_after"], c["via_before"], c["via_after"]}, "|"))
	}
	want := []string{
		"level changed|a@x|app|Lookup|use|own|member of support|member of support",
		"new admin|a@x||||||",
		"revoked|a@x|app|Refunds|edit||direct|",
		"disabled|b@x||||||",
		"via changed|b@x|folder|app:/Ops|use|use|direct; member of viewer|member of viewer",
		"granted|c@x|app|Refunds||use||direct",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(Changes(now, now)) != 0 {
		t.Error("a report compared with itself has changes")
	}
}

// The CSV a review writes reads back as it was, formula cells included.
func TestReportCSVRoundTripsAndDisarmsFormulas(t *testing.T) {
	rows := []Row{
		row("a@x", "true", "false", "resource", `=HYPERLINK("http://x","y")`, "own", "universal through All Users"),
		row("b@x", "false", "false", "app", "+1 Console", "use", "@group, \"quoted\""),
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, ReportFields, rows); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.HasPrefix(out, "USER,ACTIVE,ADMIN,OBJECT TYPE,OBJECT,LEVEL,VIA\n") {
		t.Errorf("no header row: %q", out)
	}
	for _, bad := range []string{",=HYPERLINK", ",+1 Console", ",@group", `,"=`, `,"+`, `,"@`} {
		if strings.Contains(out, bad) {
			t.Errorf("a formula cell left live (%s) in:\n%s", bad, out)
		}
	}
	path := filepath.Join(t.TempDir(), "r.csv")
	os.WriteFile(path, buf.Bytes(), 0o600)
	back, err := ReadCSV(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != 2 || back[0]["object"] != rows[0]["object"] || back[1]["via"] != rows[1]["via"] || back[1]["object"] != "+1 Console" {
		t.Errorf("read back %v, want %v", back, rows)
	}
	if len(Changes(rows, back)) != 0 {
		t.Error("a report read back from its CSV differs from itself")
	}
}
