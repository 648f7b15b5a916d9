package bulkjob_test

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"
)

// A file's columns are read as the command's flags, with --map naming the
// others (several pairs in one --map, either side first, metadata.KEY for
// one key), and in the encodings spreadsheets export in.
func TestFilesAsPeopleHaveThem(t *testing.T) {
	utf16le := func(s string) string {
		b := []byte{0xff, 0xfe}
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u), byte(u>>8))
		}
		return string(b)
	}
	for _, c := range []struct {
		name, file, text string
		args             []string
		first, dept      string // the first name and metadata.department sent
	}{
		{"UTF-8", "in.csv", "email,first-name,last-name\njose@i.example,José,N\n", nil, "José", ""},
		{"Windows-1252", "in.csv", "email,first-name,last-name\njose@i.example,Jos\xe9,N\n", []string{"--encoding", "windows-1252"}, "José", ""},
		{"UTF-16 with a byte-order mark, tab-separated", "in.txt", utf16le("email\tfirst-name\tlast-name\r\njose@i.example\tJosé\tN\r\n"), []string{"--encoding", "utf-16"}, "José", ""},
		{"semicolons, read from the header", "in.csv", "email;first-name;last-name\njose@i.example;José;N\n", nil, "José", ""},
		{"several pairs in one --map", "in.csv", "Work Email,Given Name,last-name,Department\njose@i.example,José,N,Ops\n",
			[]string{"--map", "Work Email=email,Given Name=first-name", "--map", "Department=metadata.department"}, "José", "Ops"},
		{"the flag first", "in.csv", "Mail,first-name,last-name\njose@i.example,José,N\n", []string{"--map", "email=Mail"}, "José", ""},
		{"JSON Lines, a metadata object in one field", "in.jsonl", `{"email":"jose@i.example","first-name":"José","last-name":"N","metadata":{"department":"Ops"}}` + "\n", nil, "José", "Ops"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := newOrg(t)
			o.write(c.file, c.text)
			r := o.run("users create", append([]string{"--from", c.file}, c.args...)...)
			if r.code != 0 {
				t.Fatalf("exit %d\n%s", r.code, r.err)
			}
			b := o.bodies("POST", "/api/v2/users")
			if len(b) != 1 || b[0]["email"] != "jose@i.example" || b[0]["first_name"] != c.first {
				t.Fatalf("sent %v", b)
			}
			md, _ := b[0]["metadata"].(map[string]any)
			if dept, _ := md["department"].(string); dept != c.dept {
				t.Errorf("metadata %v, want department %q", b[0]["metadata"], c.dept)
			}
		})
	}
}

// A file in another encoding than it is read in is refused at the check,
// not sent as replacement characters.
func TestAFileInAnotherEncodingIsRefused(t *testing.T) {
	o := newOrg(t)
	o.write("in.csv", "email,first-name,last-name\njose@i.example,Jos\xe9,N\n")
	r := o.run("users create", "--from", "in.csv")
	if r.code != 2 || len(o.sent()) != 0 || !strings.HasPrefix(r.err, "in.csv:2: ") || !strings.Contains(r.err, "UTF-8") {
		t.Errorf("exit %d, sent %q\n%s", r.code, o.sent(), r.err)
	}
}

// The file's options are refused before anything is read or sent when
// they cannot make sense.
func TestFileOptionsRefusedUpFront(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		args []string
		want string
	}{
		{"users create", []string{"--map", "a=email"}, "--map goes with --from FILE"},
		{"users create", []string{"--from", "in.csv", "--parallel", "0"}, "invalid --parallel 0: give 1 to 64"},
		{"users create", []string{"--from", "in.csv", "--on-exists", "replace"}, `invalid --on-exists "replace": use fail, skip or update`},
		{"users create", []string{"--from", "in.csv", "--body", "{}"}, "--body and --from cannot be used together"},
		{"users create", []string{"--from", "in.csv", "--encoding", "ebcdic"}, `invalid --encoding "ebcdic": use utf-8, windows-1252, latin1 or utf-16`},
		{"users create", []string{"--from", "in.csv", "--delimiter", "pipe"}, `invalid --delimiter "pipe": use comma, semicolon or tab`},
		{"users create", []string{"--from", "in.csv", "--from-format", "xlsx"}, `unknown input format "xlsx": use csv or jsonl`},
		{"users create", []string{"--from", "in.csv", "--map", "nickname"}, `invalid --map "nickname": give COLUMN=FLAG`},
		{"users create", []string{"--from", "in.csv", "--map", "Nick=nickname"}, `invalid --map "Nick=nickname": `},
		{"users create", []string{"--from", "in.csv", "--map", "Dept=email.x"}, `invalid --map "Dept=email.x": email.KEY needs a KEY=VALUE flag (metadata.KEY)`},
		{"users create", []string{"--from", "in.csv", "--map", "Mail=email", "--map", "mail=first-name"}, `--map names column "mail" twice`},
		{"users create", []string{"--from", "."}, "--from . is a directory"},
		{"users create", []string{"--from", "missing.csv"}, "--from: "},
		{"apps create", []string{"--from", "in.csv", "--on-exists", "update"}, "cannot update an existing object (the API has no such change): use --on-exists skip or fail"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			o := newOrg(t)
			o.write("in.csv", "email,first-name,last-name\na@i.example,A,A\n")
			r := o.run(c.cmd, c.args...)
			if r.code != 2 || len(o.sent()) != 0 || !strings.Contains(r.err, c.want) {
				t.Errorf("exit %d, sent %q\n%s\nwant %q", r.code, o.sent(), r.err, c.want)
			}
		})
	}
}

// Rows on stdin: the file is named "stdin", and a job that must be
// confirmed is refused, since stdin holds the rows and cannot answer.
func TestRowsOnStdin(t *testing.T) {
	o := newOrg(t)
	o.stdin = "email,first-name,last-name\nbad,A,A\n"
	r := o.run("users create", "--from", "-")
	if r.code != 2 || !strings.HasPrefix(r.err, `stdin:2: invalid value "bad" for email`) {
		t.Errorf("exit %d\n%s", r.code, r.err)
	}
	o.stdin = "email,first-name,last-name\nin@i.example,I,N\n"
	if r := o.run("users create", "--from", "-"); r.code != 0 || !strings.Contains(r.err, " of stdin: 1 created") {
		t.Errorf("exit %d\n%s", r.code, r.err)
	}
	o.stdin = "user\n" + anaID + "\n"
	r = o.run("users delete", "--from", "-")
	if r.code != 2 || len(o.changes()) != 0 || !strings.Contains(r.err, "stdin holds the rows, so it cannot answer") {
		t.Errorf("exit %d, sent %q\n%s", r.code, o.changes(), r.err)
	}
}

// A file of one column for a command that wants one other column is read
// as it, when the --map that says so is given; the header's message says
// which.
func TestAFileOfOneColumn(t *testing.T) {
	o := newOrg(t)
	o.write("in.csv", "Login ID\n"+anaID+"\n")
	r := o.run("users delete", "--from", "in.csv", "--yes")
	want := []string{
		`in.csv:1: unknown column "Login ID": this command's columns are user`,
		`in.csv: to read it, add --map "Login ID"=user`,
		"orgctl: in.csv: the header row does not fit the command; nothing was sent",
	}
	if got := lines(r.err); r.code != 2 || !reflect.DeepEqual(got, want) {
		t.Errorf("exit %d\n%s\nwant\n%s", r.code, r.err, strings.Join(want, "\n"))
	}
	if r := o.run("users delete", "--from", "in.csv", "--yes", "--map", "Login ID=user"); r.code != 0 || o.count("DELETE /api/v2/users/"+anaID) != 1 {
		t.Errorf("exit %d, sent %q\n%s", r.code, o.sent(), r.err)
	}
}
