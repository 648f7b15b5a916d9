package cli

import (
	"bufio"

	"github.com/orgctl/orgctl/output"
)

// Pair is one line of a status view: a key and its value.
type Pair struct{ Key, Value string }

// PrintPairs writes a status view (auth status, budget status): on a
// terminal "key:" and the values aligned in one column, as detail views
// are; piped, "key:\tvalue" lines, which scripts have read since before.
func PrintPairs(io *output.IO, pairs []Pair) error {
	if io.OutTTY {
		entries := make([]output.Entry, len(pairs))
		for i, p := range pairs {
			entries[i] = output.Entry{Key: p.Key + ":", Value: p.Value}
		}
		return (&output.Printer{IO: io}).PrintEntries(entries)
	}
	w := bufio.NewWriter(io.Out)
	for _, p := range pairs {
		w.WriteString(p.Key + ":\t" + p.Value + "\n")
	}
	return w.Flush()
}
