// Package manual is orgctl's manual for each job (bulk files, org as code,
// access reviews...): pages written once, as plain text in topics/, and
// shown by `orgctl help TOPIC`, rendered into section 7 man pages by
// cmd/internal/releasefiles, and named by the commands whose --help points
// at them. README.md gives one example per job and points here; the
// README's examples test runs every page's examples too.
//
// A page is plain text as the terminal shows it, about 76 columns wide:
//
//   - paragraphs separated by blank lines;
//   - a heading is a line of its own in capitals (RESUME, 3. PLAN IN CI);
//   - a list item starts "- " or "1. ", its continuation lines indented;
//   - a block indented by two spaces is shown as it is (examples, tables,
//     files). In it a line "$ COMMAND" is an example the tests run, a
//     command ending in \ goes on over the next line, and "NAME() {" runs
//     to a line "}". The lines after a command up to the next one are what
//     it prints, checked by the tests, except lines starting with "#".
//
// Other packages may import it: it imports nothing of orgctl's.
package manual

import (
	"embed"
	"strings"
)

//go:embed topics/*.txt
var files embed.FS

// Topic is one page of the manual.
type Topic struct {
	Name  string // `orgctl help NAME`, man page orgctl-NAME(7)
	Short string // one line, for the topic list and the man page's NAME
}

// pages are the job topics in the order `orgctl help` lists them; each
// has topics/NAME.txt.
var pages = []struct{ name, short string }{
	{"bulk", "Bulk jobs: one command over every row of a CSV or JSON Lines file"},
	{"org-as-code", "Org as code: export, plan, apply, drift checks and promotion"},
	{"access-reviews", "Access reviews: who reaches what, quarterly reports, offboarding"},
	{"spaces", "Many Spaces: one command in every Space, and promotion between them"},
	{"budget", "The rate budget: points, waits, and a budget shared through Redis"},
	{"resource-changes", "The announced resource changes and how to get ready for them"},
	{"seats", "Seats and least privilege: inactive users, reclaim, unused access, HR sync"},
}

// Topics are the job topics, in order, their texts not yet read (Text
// reads one): help lists them at every start-up of `orgctl help`.
func Topics() []Topic {
	out := make([]Topic, 0, len(pages))
	for _, p := range pages {
		out = append(out, Topic{Name: p.name, Short: p.short})
	}
	return out
}

// Text is topics/NAME.txt, or "" when there is none: the job topics, and
// the prose that topics made from code (names, environment...) append to
// what they generate.
func Text(name string) string {
	b, err := files.ReadFile("topics/" + name + ".txt")
	if err != nil {
		return ""
	}
	return strings.ReplaceAll(string(b), "\r\n", "\n")
}
