// Package suggest finds the known word nearest to a mistyped one, for the
// "did you mean" of every message: commands, flags, settings, profiles,
// fields and families. It knows strings only; it must not import cobra or
// any orgctl package.
package suggest

// Distance is the Levenshtein distance of a and b, in bytes.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Nearest is the candidate closest to word (the first given among equals)
// when it is at most within edits away; "" otherwise.
func Nearest(word string, candidates []string, within int) string {
	best, bestD := "", 0
	for _, c := range candidates {
		if d := Distance(word, c); best == "" || d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" || bestD > within {
		return ""
	}
	return best
}

// Typo is the edit distance up to which a word of n bytes is taken for a
// misspelling of another: a third of it, and at least 2.
func Typo(n int) int { return max(2, n/3) }
