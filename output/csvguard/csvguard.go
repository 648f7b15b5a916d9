// Package csvguard owns the one rule for spreadsheet formula cells in the
// CSV orgctl writes and reads back.
//
// A spreadsheet runs a cell that starts with = + - or @ as a formula
// (=HYPERLINK(...) sends data away) and treats a leading tab or carriage
// return alike. Cells come from the API and from input files, written by
// other people, so every CSV cell orgctl writes goes through Cell, which
// prefixes such a cell with a single quote, as OWASP recommends. A plain
// number such as -12 or +3.5 is left as it is: no spreadsheet runs it, and
// quoting it would turn it into text.
//
// The guard is part of the CSV form only: wherever orgctl reads a CSV file
// it may have written (--from, the --failed file, --since, a profile's
// run), Text takes it off again. Cell also guards a cell that is already
// a quote before a guarded cell, so that Text(Cell(s)) == s for every s.
//
// It knows strings only; it must not import anything of orgctl's.
package csvguard

// Cell is s as a CSV cell: led by a single quote when a spreadsheet would
// run it, or when it would read back as a guarded cell.
func Cell(s string) string {
	if guarded(s) {
		return "'" + s
	}
	return s
}

// Text is the value a cell written by Cell stood for.
func Text(cell string) string {
	if len(cell) > 1 && cell[0] == '\'' && guarded(cell[1:]) {
		return cell[1:]
	}
	return cell
}

// guarded reports whether Cell leads s with a quote.
func guarded(s string) bool {
	for s != "" && s[0] == '\'' {
		s = s[1:]
	}
	return s != "" && formulaStart(s[0]) && !plainNumber(s)
}

func formulaStart(c byte) bool {
	return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r'
}

// plainNumber reports a signed decimal number: [+-]digits[.digits].
func plainNumber(s string) bool {
	i := 0
	if s[0] == '+' || s[0] == '-' {
		i++
	}
	digits, dot := 0, false
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !dot && digits > 0:
			dot = true
			if i == len(s)-1 {
				return false
			}
		default:
			return false
		}
	}
	return digits > 0
}
