package bulkjob_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// The check pass reads the whole file before any request: every problem
// is one line FILE:LINE: message, the job exits 2, and nothing is sent.
func TestTheCheckListsEveryProblemByLineAndSendsNothing(t *testing.T) {
	for _, c := range []struct {
		name string
		cmd  string
		args []string
		file string
		text string
		want []string // stderr, whole
	}{{
		name: "emails compare without case",
		cmd:  "users create", file: "dup.csv",
		text: "email,first-name,last-name\nada@x.example,Ada,L\nbob@x.example,Bob,B\nADA@X.example,Ada,L\n",
		want: []string{
			`dup.csv:4: duplicate key "ada@x.example": line 2 has it too (each object once per file)`,
			"orgctl: dup.csv: 1 problem; nothing was sent",
		},
	}, {
		name: "two changes to one object",
		cmd:  "users update", file: "upd.csv",
		text: "user,first-name\nuser_1,A\nuser_2,B\nUSER_1,C\n",
		want: []string{
			`upd.csv:4: duplicate key "user_1": line 2 has it too (each object once per file)`,
			"orgctl: upd.csv: 1 problem; nothing was sent",
		},
	}, {
		name: "a member named twice in one group",
		cmd:  "groups members add", args: []string{"support"}, file: "m.csv",
		text: "user\ndev.lee@sandbox.example\nana.viewer@sandbox.example\nDev.Lee@sandbox.example\n",
		want: []string{
			`m.csv:4: duplicate key "support user=dev.lee@sandbox.example": line 2 has it too (each object once per file)`,
			"orgctl: m.csv: 1 problem; nothing was sent",
		},
	}, {
		name: "values the build refuses, with flags named as columns",
		cmd:  "users create", file: "v.csv",
		text: "email,first-name,last-name,active\nnot-an-email,A,B,true\nb@x.example,,B,maybe\n",
		want: []string{
			`v.csv:2: invalid value "not-an-email" for email: expected an email address such as ada@example.com`,
			`v.csv:3: invalid value "maybe" for active: expected true or false`,
			"v.csv:3: first-name is missing or empty: it is required",
			"orgctl: v.csv: 3 problems; nothing was sent",
		},
	}, {
		name: "a line with a value too many",
		cmd:  "users create", file: "n.csv",
		text: "email,first-name,last-name\na@x.example,A,B,extra\n",
		want: []string{
			"n.csv:2: 4 values, but the header row names 3 columns",
			"orgctl: n.csv: 1 problem; nothing was sent",
		},
	}, {
		name: "a row without its argument",
		cmd:  "users update", file: "r.csv",
		text: "user,first-name\nana.viewer@sandbox.example,Ana\n \t,Bob\n",
		want: []string{
			"r.csv:3: user is missing or empty: every row needs one",
			"orgctl: r.csv: 1 problem; nothing was sent",
		},
	}, {
		name: "a file of no rows",
		cmd:  "users create", file: "empty.csv",
		text: "email,first-name,last-name\n\n",
		want: []string{"orgctl: empty.csv has no rows: nothing to do"},
	}} {
		t.Run(c.name, func(t *testing.T) {
			o := newOrg(t)
			o.write(c.file, c.text)
			r := o.run(c.cmd, append([]string{"--from", c.file}, c.args...)...)
			if r.code != 2 {
				t.Errorf("exit %d, want 2", r.code)
			}
			if got := lines(r.err); !reflect.DeepEqual(got, c.want) {
				t.Errorf("stderr\n%s\nwant\n%s", r.err, strings.Join(c.want, "\n"))
			}
			if s := o.sent(); len(s) != 0 {
				t.Errorf("the check sent %q", s)
			}
			if r.out != "" {
				t.Errorf("stdout %q", r.out)
			}
		})
	}
}

// A file of many bad rows lists the first hundred problems and counts the
// rest, so a wrong file does not flood the terminal.
func TestTheCheckListsAHundredProblemsAndCountsTheRest(t *testing.T) {
	o := newOrg(t)
	var b strings.Builder
	b.WriteString("email,first-name,last-name\n")
	for i := range 105 {
		fmt.Fprintf(&b, "bad%d,A,B\n", i)
	}
	o.write("bad.csv", b.String())
	r := o.run("users create", "--from", "bad.csv")
	got := lines(r.err)
	if r.code != 2 || len(got) != 102 {
		t.Fatalf("exit %d, %d lines of stderr:\n%s", r.code, len(got), r.err)
	}
	for i, l := range got[:100] {
		if want := fmt.Sprintf("bad.csv:%d: invalid value \"bad%d\" for email:", i+2, i); !strings.HasPrefix(l, want) {
			t.Fatalf("problem %d: %q, want it to start %q", i, l, want)
		}
	}
	if got[100] != "bad.csv: ... and 5 problems more" || got[101] != "orgctl: bad.csv: 105 problems; nothing was sent" {
		t.Errorf("the tail: %q", got[100:])
	}
}

// An unknown field of JSON Lines is said once, at its first line, with
// the number of lines that have it, not once per row.
func TestAnUnknownJSONField(t *testing.T) {
	o := newOrg(t)
	var b strings.Builder
	for i := range 4 {
		fmt.Fprintf(&b, `{"email":"u%d@x.example","first-name":"U","last-name":"X","shoe":%d}`+"\n", i, 40+i)
	}
	o.write("p.jsonl", b.String())
	r := o.run("users create", "--from", "p.jsonl")
	if r.code != 2 {
		t.Errorf("exit %d", r.code)
	}
	got := lines(r.err)
	if len(got) != 3 || !strings.HasPrefix(got[0], `p.jsonl:1: unknown field "shoe": fields are named like the command's flags`) ||
		!strings.HasPrefix(got[1], `p.jsonl: (unknown field "shoe"`) || !strings.HasSuffix(got[1], " on 4 lines in all)") {
		t.Errorf("stderr\n%s", r.err)
	}
	// --ignore-unknown leaves it out and names it once
	r = o.run("users create", "--from", "p.jsonl", "--ignore-unknown")
	if r.code != 0 || strings.Count(r.out, "\tcreated\t") != 4 {
		t.Fatalf("exit %d\n%s%s", r.code, r.out, r.err)
	}
	if !strings.Contains(r.err, `orgctl: p.jsonl: ignoring column "shoe" (--ignore-unknown)`) {
		t.Errorf("stderr\n%s", r.err)
	}
}

// A header that does not fit the command ends the check in a few lines:
// no row would say more than the header does.
func TestAHeaderThatDoesNotFit(t *testing.T) {
	for _, c := range []struct {
		name, text string
		args       []string
		want       []string
	}{{
		name: "a spreadsheet's names, read with the --map that fits each",
		text: "Work Email,Given Name,Surname,Badge\na@x.example,A,B,7\nb@x.example,C,D,8\n",
		want: []string{
			`in.csv:1: unknown columns "Work Email", "Given Name", "Surname", "Badge": this command's columns are email, first-name, last-name, `,
			`in.csv: to read them, add --map "Work Email"=email --map "Given Name"=first-name --map Surname=last-name, and --ignore-unknown to leave out "Badge"`,
			"orgctl: in.csv: the header row does not fit the command; nothing was sent",
		},
	}, {
		name: "the wrong separator",
		text: "email;first-name;last-name\na@x.example;A;B\n",
		args: []string{"--delimiter", "comma"},
		want: []string{
			`in.csv:1: unknown column "email;first-name;last-name": this command's columns are email, `,
			"in.csv: name the columns like the flags, or read one with --map COLUMN=FLAG; --ignore-unknown leaves unknown columns out",
			`in.csv:1: missing columns "email", "first-name", "last-name": required (or give --email, --first-name, --last-name on the command line for every row)`,
			"orgctl: in.csv: the header row does not fit the command (read as comma-separated; --delimiter sets the separator); nothing was sent",
		},
	}, {
		name: "a column twice and one missing",
		text: "email,mail,first-name\na@x.example,b@x.example,A\n",
		args: []string{"--map", "mail=email"},
		want: []string{
			`in.csv:1: columns "email" and "mail" both give email: drop one`,
			`in.csv:1: missing column "last-name": required (or give --last-name on the command line for every row)`,
			"orgctl: in.csv: the header row does not fit the command; nothing was sent",
		},
	}} {
		t.Run(c.name, func(t *testing.T) {
			o := newOrg(t)
			o.write("in.csv", c.text)
			r := o.run("users create", append([]string{"--from", "in.csv"}, c.args...)...)
			got := lines(r.err)
			if r.code != 2 || len(got) != len(c.want) {
				t.Fatalf("exit %d, stderr\n%s", r.code, r.err)
			}
			for i, w := range c.want {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("line %d\n%s\nwant it to start\n%s", i+1, got[i], w)
				}
			}
			if len(o.sent()) != 0 {
				t.Errorf("sent %q", o.sent())
			}
		})
	}
}
