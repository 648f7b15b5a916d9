package bulkjob

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/cmd/internal/suggest"
)

// headerCheck is what a CSV's header row says of the file as a whole.
type headerCheck struct {
	unknown []string // columns that name nothing, in file order
	missing []string // required fields and arguments no column gives
	probs   []string // everything else, one message each
	have    map[string]string
}

// fits: the columns are those of the command; rows can be read.
func (h headerCheck) fits() bool { return len(h.unknown) == 0 && len(h.missing) == 0 }

// header checks a CSV header: every column names something, nothing is
// named twice, required fields and arguments are there.
func (j *fileInput) header(cols []string) headerCheck {
	h := headerCheck{have: map[string]string{}} // target -> column
	for _, col := range cols {
		if col == "" {
			continue
		}
		t, ok := j.cols.target(col)
		if !ok {
			if j.o.ignoreUnknown {
				j.ignore(col)
				continue
			}
			h.unknown = append(h.unknown, col)
			continue
		}
		name := j.cols.targetName(t)
		if t.kv != "" {
			name += "." + t.kv
		}
		if t.field == nil && t.arg < j.cols.given {
			h.probs = append(h.probs, fmt.Sprintf("column %q gives %s, which the command line gives already: drop one", col, name))
			continue
		}
		if prev, dup := h.have[name]; dup {
			h.probs = append(h.probs, fmt.Sprintf("columns %q and %q both give %s: drop one", prev, col, name))
			continue
		}
		h.have[name] = col
	}
	for _, fd := range j.op.Fields {
		if fd.Required && h.have[fd.Flag] == "" && len(j.base.Values[fd.Flag]) == 0 {
			h.missing = append(h.missing, fd.Flag)
		}
	}
	for i := j.cols.given; i < len(j.op.Args.Params); i++ {
		if h.have[j.cols.args[i]] == "" {
			h.missing = append(h.missing, j.cols.args[i])
		}
	}
	return h
}

// headerLines say in a few lines what does not fit in a header: the
// unknown columns with the --map that likely reads each, and the required
// columns still missing then. One message for the file, not one per row:
// every row of such a file would repeat the header's problem.
func (j *fileInput) headerLines(h headerCheck) []string {
	name := j.src.name
	var out []string
	maps := j.cols.likelyMaps(h.unknown, h.have)
	if len(maps) == 0 && len(h.have) == 0 && len(h.unknown) == 1 && len(h.missing) == 1 && !strings.ContainsAny(h.unknown[0], ",;\t|") {
		maps[h.unknown[0]] = h.missing[0] // a file of one column, for a command that wants one
	}
	covered := map[string]bool{}
	var guesses, unmatched []string
	for _, col := range h.unknown {
		to, ok := maps[col]
		if !ok {
			unmatched = append(unmatched, strconv.Quote(col))
			continue
		}
		covered[to] = true
		guesses = append(guesses, "--map "+shellWord(col)+"="+to)
	}
	if len(h.unknown) > 0 {
		out = append(out, fmt.Sprintf("%s:1: %s %s: this command's columns are %s",
			name, nounFor(len(h.unknown), "unknown column", "unknown columns"), quoteAll(h.unknown), j.cols.known()))
	}
	if len(guesses) > 0 {
		tail := ""
		if len(unmatched) > 0 {
			tail = ", and --ignore-unknown to leave out " + strings.Join(unmatched, ", ")
		}
		out = append(out, fmt.Sprintf("%s: to read %s, add %s%s", name, nounFor(len(guesses), "it", "them"), strings.Join(guesses, " "), tail))
	} else if len(h.unknown) > 0 {
		out = append(out, fmt.Sprintf("%s: name the columns like the flags, or read one with --map COLUMN=FLAG; --ignore-unknown leaves unknown columns out", name))
	}
	var still []string
	for _, m := range h.missing {
		if !covered[m] {
			still = append(still, m)
		}
	}
	if len(still) > 0 {
		out = append(out, fmt.Sprintf("%s:1: missing %s %s: required (or give %s on the command line for every row)",
			name, nounFor(len(still), "column", "columns"), quoteAll(still), j.cols.flagsOf(still)))
	}
	return out
}

// flagsOf names how the command line gives these columns instead.
func (b *bulkColumns) flagsOf(cols []string) string {
	out := make([]string, len(cols))
	uses := opdef.ArgNames(b.op.Use)
	for i, c := range cols {
		out[i] = "--" + c
		if t, ok := b.names[c]; ok && t.field == nil && t.arg < len(uses) {
			out[i] = strings.Trim(uses[t.arg], "[]") // the argument as the usage line names it
		}
	}
	return strings.Join(out, ", ")
}

// columnSynonym is the name commands give a column that people's files
// (HR exports, spreadsheets) call n, in normal form (see norm); "" when n
// is no known synonym.
func columnSynonym(n string) string {
	switch n {
	case "emailaddress", "mail", "mailaddress", "workemail", "useremail":
		return "email"
	case "first", "firstname", "givenname", "forename":
		return "first-name"
	case "last", "lastname", "surname", "familyname":
		return "last-name"
	case "username", "login", "member", "employee":
		return "user"
	case "groupname", "team":
		return "group"
	}
	return ""
}

// norm is a column's name without case, spaces or punctuation.
func norm(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// likelyMaps guesses, for each unknown column, the flag or argument it
// holds: the same name but for spacing and case, a known synonym, a name
// that contains the other, or a near spelling. A target that a column
// gives already, or that an earlier guess took, is not guessed again.
func (b *bulkColumns) likelyMaps(unknown []string, have map[string]string) map[string]string {
	byNorm := map[string]string{} // normal form of a name -> the target's name
	var norms []string
	for name, t := range b.names {
		if t.field == nil && t.arg < b.given {
			continue
		}
		n := norm(name)
		if _, dup := byNorm[n]; !dup && n != "" {
			byNorm[n] = b.targetName(t)
			norms = append(norms, n)
		}
	}
	sort.Strings(norms)
	taken := map[string]bool{}
	for target := range have {
		taken[target] = true
	}
	out := map[string]string{}
	for _, col := range unknown {
		if strings.ContainsAny(col, ",;\t|") {
			continue // a whole header row read as one name: the separator is wrong, not the name
		}
		n := norm(col)
		guess := ""
		switch {
		case byNorm[n] != "":
			guess = byNorm[n]
		case columnSynonym(n) != "" && byNorm[norm(columnSynonym(n))] != "":
			guess = byNorm[norm(columnSynonym(n))]
		default:
			guess = containing(n, norms, byNorm)
		}
		if guess == "" {
			if near := suggest.Nearest(n, norms, suggest.Typo(len(n))); near != "" && len(n) >= 4 {
				guess = byNorm[near]
			}
		}
		if guess != "" && !taken[guess] {
			taken[guess] = true
			out[col] = guess
		}
	}
	return out
}

// containing is the target whose name the column's contains ("useremail"
// holds "email"), or that contains the column's, the longest such name
// first; names under four letters are too short to tell.
func containing(n string, norms []string, byNorm map[string]string) string {
	best := ""
	for _, k := range norms {
		if len(k) < 4 || len(n) < 4 {
			continue
		}
		if (strings.Contains(n, k) || strings.Contains(k, n)) && len(k) > len(best) {
			best = k
		}
	}
	if best == "" {
		return ""
	}
	return byNorm[best]
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

// shellWord quotes a column's name for a shell when it needs it.
func shellWord(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"$`\\|&;<>()*?[]#~!{}") {
		return s
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`").Replace(s) + `"`
}

// CountOf is n and the noun, plural by an s when n is not 1: "1 row", "2 rows".
func CountOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// nounFor is one or many, as n says.
func nounFor(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
