package output

import (
	"bufio"
	"bytes"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/orgctl/orgctl/output/jsonscan"
	"github.com/orgctl/orgctl/output/lazy"
)

// writeYAML writes JSON data as YAML, streamed as it is read: block style,
// two-space indentation, keys in the order received, every number in the
// text received, strings quoted only where a YAML reader would take them
// for something else (YAML 1.1 booleans such as "yes" included).
//
// The bytes are those yaml.v3's encoder makes for the same data decoded as a
// yaml.Node with every style reset, so the choice of plain, single-quoted,
// double-quoted or literal scalars, the escapes, and the indentation of
// nested collections follow its emitter rule for rule (the differential
// test and fuzz target hold the two side by side). Strings are decoded as
// JSON decodes them, which yaml.v3's parser does not always do: it rejects
// surrogate-pair escapes and invalid UTF-8, and folds a raw U+0085 (NEL)
// into a space as a line break.
func writeYAML(w *bufio.Writer, data []byte) error {
	return whole(yamlValue, w, data, false)
}

// yamlValue is writeYAML as a format.
func yamlValue(w *bufio.Writer, r *jsonscan.Reader, end func() error) error {
	e := &yamlEmitter{r: r, w: w, indent: -1, whitespace: true, indention: true}
	if err := e.node(ctxRoot, false, new(yamlShape)); err != nil {
		return err
	}
	if err := end(); err != nil {
		return err
	}
	// The implicit document end: a line break unless one was just written.
	e.writeIndent()
	return nil
}

// yamlEmitter is the state of yaml.v3's emitter that output from a JSON
// value can reach: no comments, anchors, tags, flow collections other than
// empty ones, or line folding (yaml.v3 sets no width limit).
type yamlEmitter struct {
	r *jsonscan.Reader
	w *bufio.Writer

	indent  int   // current block indentation; -1 before the root node
	indents []int // enclosing indentations
	column  int   // bytes written on the current line (see writeChars)

	whitespace bool // the last character written was whitespace
	indention  bool // only indentation has been written on this line

	scratch []byte // decoded string contents
}

// A yamlShape is what the emitter keeps of the values at one place in the
// document, such as the items of a list, which tend to repeat their keys:
// the keys of the objects there, and what each simple key and its ":" came
// out as. A key's form depends on nothing else: it starts after
// indentation or "- ", and leaves the line mid-way, past a non-blank.
type yamlShape struct {
	keys jsonscan.Shape
	out  [][]byte     // key k and its ":", nil when not written as a simple key
	sub  []*yamlShape // the values of key k
	elem *yamlShape   // the elements of lists here
}

// keeps reports whether sh keeps what key k came out as.
func (sh *yamlShape) keeps(k int) bool { return sh != nil && k >= 0 }

// value is the shape of the values of key k, nil past the keys kept.
func (sh *yamlShape) value(k int) *yamlShape {
	if !sh.keeps(k) {
		return nil
	}
	if sh.sub[k] == nil {
		sh.sub[k] = new(yamlShape)
	}
	return sh.sub[k]
}

// learn keeps out as what key k came out as, and forgets what was kept of
// the values of the key before it.
func (sh *yamlShape) learn(k int, out []byte) {
	if !sh.keeps(k) {
		return
	}
	for len(sh.out) <= k {
		sh.out = append(sh.out, nil)
		sh.sub = append(sh.sub, nil)
	}
	sh.out[k], sh.sub[k] = out, nil
}

// elements is the shape of the elements of lists here.
func (sh *yamlShape) elements() *yamlShape {
	if sh == nil {
		return nil
	}
	if sh.elem == nil {
		sh.elem = new(yamlShape)
	}
	return sh.elem
}

// yamlContext says what holds a node, as yaml.v3's emitter state stack does.
type yamlContext int

const (
	ctxRoot yamlContext = iota
	ctxSeqItem
	ctxKey
	ctxValue
)

type scalarStyle int

const (
	stylePlain scalarStyle = iota
	styleSingle
	styleDouble
	styleLiteral
)

func (e *yamlEmitter) increaseIndent(flow bool, parent yamlContext) {
	e.indents = append(e.indents, e.indent)
	switch {
	case e.indent < 0:
		if flow {
			e.indent = 2
		} else {
			e.indent = 0
		}
	case parent == ctxSeqItem:
		// The first indent inside a sequence skips the "- " indicator.
		e.indent += 2
	default:
		e.indent = 2 * ((e.indent + 2) / 2)
	}
}

func (e *yamlEmitter) popIndent() {
	e.indent = e.indents[len(e.indents)-1]
	e.indents = e.indents[:len(e.indents)-1]
}

func (e *yamlEmitter) put(c byte) {
	e.w.WriteByte(c)
	e.column++
}

func (e *yamlEmitter) putBreak() {
	e.w.WriteByte('\n')
	e.column = 0
	e.indention = true
}

// writeChars writes UTF-8 text that holds no line breaks. It counts bytes
// as columns: the count is only read while a line holds nothing but
// indentation and indicators (every scalar writer ends with indention
// false, and a line break resets the count), where the two agree.
func (e *yamlEmitter) writeChars(s []byte) {
	e.w.Write(s)
	e.column += len(s)
}

// writeBreak writes the line break at s[i] and returns its width.
func (e *yamlEmitter) writeBreak(s []byte, i int) int {
	if s[i] == '\n' {
		e.putBreak()
		return 1
	}
	n := charWidth(s[i])
	e.w.Write(s[i : i+n])
	e.column = 0
	e.indention = true
	return n
}

func (e *yamlEmitter) writeIndent() {
	indent := max(e.indent, 0)
	if !e.indention && indent < len(newlineSpaces) {
		// The common case, in one write: a new line and its indentation.
		e.w.WriteString(newlineSpaces[:1+indent])
		e.column, e.indention, e.whitespace = indent, true, true
		return
	}
	if !e.indention || e.column > indent || (e.column == indent && !e.whitespace) {
		e.putBreak()
	}
	for e.column < indent {
		n := min(indent-e.column, len(spaces))
		e.w.WriteString(spaces[:n])
		e.column += n
	}
	e.whitespace = true
}

const newlineSpaces = "\n" + spaces

const spaces = "                                                                "

func (e *yamlEmitter) writeIndicator(ind string, needWhitespace, isWhitespace, isIndention bool) {
	if needWhitespace && !e.whitespace {
		e.put(' ')
	}
	e.w.WriteString(ind)
	e.column += len(ind)
	e.whitespace = isWhitespace
	e.indention = e.indention && isIndention
}

// node emits the value at the reader's position, held by parent, with the
// shape kept for values at its place (nil for none). simpleKey is true for
// a mapping key written on one line with its value.
func (e *yamlEmitter) node(parent yamlContext, simpleKey bool, sh *yamlShape) error {
	r := e.r
	switch r.Peek() {
	case '{':
		return e.mapping(parent, sh)
	case '[':
		return e.sequence(parent, sh.elements())
	case '"':
		raw, plain, err := r.Str()
		if err != nil {
			return err
		}
		if !plain {
			v := jsonscan.Text(raw, plain, &e.scratch)
			e.scalar(v, stringStyle(v), nil, parent, simpleKey)
			return nil
		}
		// Text without escapes: JSON escapes every line break, so it
		// holds none.
		style := oneLineStyle(raw)
		if style == stylePlain && isPlainText(raw) {
			// The usual string, written as scalar would write it,
			// without its analysis.
			e.writePlain(raw)
			return nil
		}
		e.scalar(raw, style, nil, parent, simpleKey)
		return nil
	default:
		v, err := r.Skip()
		if err != nil {
			return err
		}
		// Numbers, booleans and null are plain and need no analysis: no
		// indicator, space, break or special character can occur in them.
		e.scalar(v, stylePlain, &plainScalar, parent, simpleKey)
		return nil
	}
}

func (e *yamlEmitter) mapping(parent yamlContext, sh *yamlShape) error {
	var keys *jsonscan.Shape
	if sh != nil {
		keys = &sh.keys
	}
	empty := true
	err := e.r.ObjectShaped(keys, func(k int, known bool, raw []byte, plain bool) error {
		if empty {
			e.increaseIndent(false, parent)
			empty = false
		}
		e.writeIndent()
		if known && k < len(sh.out) && sh.out[k] != nil {
			e.writeChars(sh.out[k])
			e.whitespace, e.indention = false, false
			return e.node(ctxValue, false, sh.value(k))
		}
		key := jsonscan.Text(raw, plain, &e.scratch)
		a := analyzeScalar(key)
		if !a.multiline && len(key) <= 128 {
			if !known && sh.keeps(k) {
				// Written apart first, to be kept.
				w := e.w
				var out bytes.Buffer
				e.w = bufio.NewWriterSize(&out, 1024)
				e.scalar(key, stringStyle(key), &a, ctxKey, true)
				e.writeIndicator(":", false, false, false)
				e.w.Flush()
				e.w = w
				w.Write(out.Bytes())
				sh.learn(k, out.Bytes())
			} else {
				e.scalar(key, stringStyle(key), &a, ctxKey, true)
				e.writeIndicator(":", false, false, false)
			}
		} else {
			// A key too long or broken over lines is written as "? key".
			e.writeIndicator("?", true, false, true)
			e.scalar(key, stringStyle(key), &a, ctxKey, false)
			e.writeIndent()
			e.writeIndicator(":", true, false, true)
			if !known {
				sh.learn(k, nil)
			}
		}
		return e.node(ctxValue, false, sh.value(k))
	})
	if err != nil {
		return err
	}
	if empty {
		// An empty block mapping is written in flow style.
		e.writeIndicator("{", true, true, false)
		e.writeIndicator("}", false, false, false)
		return nil
	}
	e.popIndent()
	return nil
}

func (e *yamlEmitter) sequence(parent yamlContext, sh *yamlShape) error {
	empty := true
	err := e.r.Array(func() error {
		if empty {
			e.increaseIndent(false, parent)
			empty = false
		}
		return e.item(sh)
	})
	if err != nil {
		return err
	}
	if empty {
		e.writeIndicator("[", true, true, false)
		e.writeIndicator("]", false, false, false)
		return nil
	}
	e.popIndent()
	return nil
}

// item writes one sequence item, its indicator and its value, which has
// the shape sh.
func (e *yamlEmitter) item(sh *yamlShape) error {
	e.writeIndent()
	e.writeIndicator("-", true, false, true)
	return e.node(ctxSeqItem, false, sh)
}

// stringStyle is the style yaml.v3 asks for a string scalar: double quotes
// for YAML 1.1 boolean words and for text that would read back as another
// type, literal for multi-line text, plain otherwise.
func stringStyle(v []byte) scalarStyle {
	if bytes.IndexByte(v, '\n') >= 0 {
		return styleLiteral // no YAML 1.1 boolean holds a line break
	}
	return oneLineStyle(v)
}

// oneLineStyle is stringStyle for text without a line feed.
func oneLineStyle(v []byte) scalarStyle {
	if isYAML11Bool(v) || !resolvesToString(v) {
		return styleDouble
	}
	return stylePlain
}

// isYAML11Bool reports y, yes, n, no, on and off in any case: YAML 1.1
// readers would take them for booleans.
func isYAML11Bool(v []byte) bool {
	if len(v) > 3 {
		return false
	}
	var low [3]byte
	for i, c := range v {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		low[i] = c
	}
	switch string(low[:len(v)]) {
	case "y", "yes", "n", "no", "on", "off":
		return true
	}
	return false
}

// scalar writes v in the style the emitter settles on, given the requested
// one and what the text holds (a, computed here when nil and needed).
func (e *yamlEmitter) scalar(v []byte, style scalarStyle, a *scalarAnalysis, parent yamlContext, simpleKey bool) {
	if a == nil && (style != styleDouble || simpleKey) {
		an := analyzeScalar(v)
		a = &an
	}
	if simpleKey && a.multiline {
		style = styleDouble
	}
	if style == stylePlain {
		if !a.blockPlain || (len(v) == 0 && simpleKey) {
			style = styleSingle
		}
	}
	if style == styleSingle && !a.singleQuoted {
		style = styleDouble
	}
	if style == styleLiteral && (!a.block || simpleKey) {
		style = styleDouble
	}

	switch style {
	case stylePlain:
		e.writePlain(v)
	case styleDouble:
		e.writeDoubleQuoted(v)
	default:
		// Only these two styles break lines, and so use the indentation a
		// scalar gets.
		e.increaseIndent(true, parent)
		if style == styleSingle {
			e.writeSingleQuoted(v)
		} else {
			e.writeLiteral(v)
		}
		e.popIndent()
	}
}

func (e *yamlEmitter) writePlain(v []byte) {
	if len(v) > 0 && !e.whitespace {
		e.put(' ')
	}
	// Plain style is only chosen for text without line breaks.
	e.writeChars(v)
	if len(v) > 0 {
		e.whitespace = false
	}
	e.indention = false
}

func (e *yamlEmitter) writeSingleQuoted(v []byte) {
	e.writeIndicator("'", true, false, false)
	breaks := false
	for i := 0; i < len(v); {
		switch {
		case v[i] == ' ':
			e.put(' ')
			i++
		case isBreak(v, i):
			if !breaks && v[i] == '\n' {
				e.putBreak()
			}
			i += e.writeBreak(v, i)
			breaks = true
		default:
			if breaks {
				e.writeIndent()
			}
			if v[i] == '\'' {
				e.put('\'')
			}
			n := charWidth(v[i])
			e.writeChars(v[i : i+n])
			i += n
			e.indention = false
			breaks = false
		}
	}
	e.writeIndicator("'", false, false, false)
	e.whitespace = false
	e.indention = false
}

const upperHex = "0123456789ABCDEF"

func (e *yamlEmitter) writeDoubleQuoted(v []byte) {
	e.writeIndicator(`"`, true, false, false)
	// yaml.v3 tests for a byte order mark at the start of the text, not at
	// each character: text that starts with one is escaped throughout.
	bom := len(v) >= 3 && v[0] == 0xEF && v[1] == 0xBB && v[2] == 0xBF
	start := 0 // first byte of the pending run of unescaped text
	for i := 0; i < len(v); {
		c := v[i]
		if quotedPlain(c) && !bom {
			i++ // the usual byte: printable ASCII, written as it is
			continue
		}
		n := charWidth(c)
		if isPrintable(v, i) && !bom && !isBreak(v, i) && c != '"' && c != '\\' {
			i += n
			continue
		}
		e.writeChars(v[start:i])
		r, _ := utf8.DecodeRune(v[i:])
		i += n
		start = i
		e.put('\\')
		switch r {
		case 0x00:
			e.put('0')
		case 0x07:
			e.put('a')
		case 0x08:
			e.put('b')
		case 0x09:
			e.put('t')
		case 0x0A:
			e.put('n')
		case 0x0B:
			e.put('v')
		case 0x0C:
			e.put('f')
		case 0x0D:
			e.put('r')
		case 0x1B:
			e.put('e')
		case '"':
			e.put('"')
		case '\\':
			e.put('\\')
		case 0x85:
			e.put('N')
		case 0xA0:
			e.put('_')
		case 0x2028:
			e.put('L')
		case 0x2029:
			e.put('P')
		default:
			digits := 8
			switch {
			case r <= 0xFF:
				e.put('x')
				digits = 2
			case r <= 0xFFFF:
				e.put('u')
				digits = 4
			default:
				e.put('U')
			}
			for k := (digits - 1) * 4; k >= 0; k -= 4 {
				e.put(upperHex[(r>>uint(k))&0x0F])
			}
		}
	}
	e.writeChars(v[start:])
	e.writeIndicator(`"`, false, false, false)
	e.whitespace = false
	e.indention = false
}

func (e *yamlEmitter) writeLiteral(v []byte) {
	e.writeIndicator("|", true, false, false)
	// Block scalar hints: an explicit indentation when the text starts
	// with a space or break, and the chomping of its final line breaks.
	if v[0] == ' ' || isBreak(v, 0) {
		e.writeIndicator("2", false, false, false)
	}
	i := len(v) - 1
	for v[i]&0xC0 == 0x80 {
		i--
	}
	switch {
	case !isBreak(v, i):
		e.writeIndicator("-", false, false, false)
	case i == 0:
		e.writeIndicator("+", false, false, false)
	default:
		i--
		for v[i]&0xC0 == 0x80 {
			i--
		}
		if isBreak(v, i) {
			e.writeIndicator("+", false, false, false)
		}
	}
	e.putBreak()
	e.whitespace = true
	breaks := true
	for i := 0; i < len(v); {
		if isBreak(v, i) {
			i += e.writeBreak(v, i)
			breaks = true
			continue
		}
		if breaks {
			e.writeIndent()
		}
		j := i
		for j < len(v) && !isBreak(v, j) {
			j += charWidth(v[j])
		}
		e.writeChars(v[i:j])
		i = j
		e.indention = false
		breaks = false
	}
}

// scalarAnalysis is what yaml.v3's emitter learns from a scalar's text
// before choosing its style (the flow-context half is never needed here).
type scalarAnalysis struct {
	multiline    bool
	blockPlain   bool
	singleQuoted bool
	block        bool
}

// plainScalar is the analysis of text that may be written in any style.
var plainScalar = scalarAnalysis{blockPlain: true, singleQuoted: true, block: true}

// plainBytes marks, for each byte, printable ASCII that is no indicator
// anywhere in a scalar (rest) and none at its start either (first). A
// table, as it is read for every byte of the common scalar; built on the
// first YAML output.
var plainBytes = lazy.Value[*plainTables]{New: func() *plainTables {
	t := new(plainTables)
	for c := 0x20; c < 0x7F; c++ {
		t.rest[c] = c != '#' && c != ':'
		t.first[c] = c != ' ' && !strings.ContainsRune("#,[]{}&*!|>'\"%@`?:-", rune(c))
	}
	return t
}}

type plainTables struct{ rest, first [256]bool }

// isPlainText recognizes, in one pass, the common text that needs no
// further analysis: printable ASCII with no indicator, no ": " or " #", no
// space at either end.
func isPlainText(v []byte) bool {
	t := plainBytes.Get()
	plainByte, plainFirst := &t.rest, &t.first
	if len(v) == 0 || !plainFirst[v[0]] || v[len(v)-1] == ' ' {
		return false
	}
	if len(v) >= 3 && v[0] == '.' && v[1] == '.' && v[2] == '.' {
		return false
	}
	for i := 1; i < len(v); i++ {
		if c := v[i]; !plainByte[c] {
			if c != ':' || i+1 == len(v) || v[i+1] == ' ' {
				return false
			}
		}
	}
	return true
}

func analyzeScalar(v []byte) scalarAnalysis {
	if isPlainText(v) {
		return plainScalar
	}
	if len(v) == 0 {
		return scalarAnalysis{blockPlain: true, singleQuoted: true}
	}
	var indicators, lineBreaks, special, tabs bool
	var leadingSpace, leadingBreak, trailingSpace, trailingBreak, breakSpace, spaceBreak bool
	var previousSpace, previousBreak bool
	if len(v) >= 3 && (v[0] == '-' && v[1] == '-' && v[2] == '-' || v[0] == '.' && v[1] == '.' && v[2] == '.') {
		indicators = true
	}
	precededByWhitespace := true
	for i, w := 0, 0; i < len(v); i += w {
		c := v[i]
		w = charWidth(c)
		followedByWhitespace := i+w >= len(v) || v[i+w] == ' ' || v[i+w] == '\t'
		if i == 0 {
			switch c {
			case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
				indicators = true
			case '?', ':', '-':
				if followedByWhitespace {
					indicators = true
				}
			}
		} else {
			switch c {
			case ':':
				if followedByWhitespace {
					indicators = true
				}
			case '#':
				if precededByWhitespace {
					indicators = true
				}
			}
		}
		if c == '\t' {
			tabs = true
		} else if !isPrintable(v, i) {
			special = true
		}
		switch {
		case c == ' ':
			leadingSpace = leadingSpace || i == 0
			trailingSpace = trailingSpace || i+w == len(v)
			breakSpace = breakSpace || previousBreak
			previousSpace, previousBreak = true, false
		case isBreak(v, i):
			lineBreaks = true
			leadingBreak = leadingBreak || i == 0
			trailingBreak = trailingBreak || i+w == len(v)
			spaceBreak = spaceBreak || previousSpace
			previousSpace, previousBreak = false, true
		default:
			previousSpace, previousBreak = false, false
		}
		precededByWhitespace = c == ' ' || c == '\t' || c == 0 || isBreak(v, i)
	}
	a := scalarAnalysis{multiline: lineBreaks, blockPlain: true, singleQuoted: true, block: true}
	if leadingSpace || leadingBreak || trailingSpace || trailingBreak || lineBreaks || indicators {
		a.blockPlain = false
	}
	if trailingSpace {
		a.block = false
	}
	if breakSpace || spaceBreak || tabs || special {
		a.blockPlain = false
		a.singleQuoted = false
	}
	if spaceBreak || special {
		a.block = false
	}
	return a
}

// charWidth is the length of the UTF-8 sequence that starts with c.
func charWidth(c byte) int {
	switch {
	case c&0x80 == 0:
		return 1
	case c&0xE0 == 0xC0:
		return 2
	case c&0xF0 == 0xE0:
		return 3
	}
	return 4
}

// quotedPlain reports the ASCII bytes a double-quoted scalar holds as they
// are: the printable ones but the quote and the backslash.
func quotedPlain(c byte) bool {
	return 0x20 <= c && c <= 0x7E && c != '"' && c != '\\'
}

// isPrintable is YAML's printable set as yaml.v3 tests it, which leaves out
// characters beyond the Basic Multilingual Plane.
func isPrintable(v []byte, i int) bool {
	c := v[i]
	return c == 0x0A ||
		0x20 <= c && c <= 0x7E ||
		c == 0xC2 && v[i+1] >= 0xA0 ||
		c > 0xC2 && c < 0xED ||
		c == 0xED && v[i+1] < 0xA0 ||
		c == 0xEE ||
		c == 0xEF && !(v[i+1] == 0xBB && v[i+2] == 0xBF) && !(v[i+1] == 0xBF && (v[i+2] == 0xBE || v[i+2] == 0xBF))
}

// isBreak reports a YAML line break: CR, LF, NEL, LS or PS.
func isBreak(v []byte, i int) bool {
	c := v[i]
	return c == '\r' || c == '\n' ||
		c == 0xC2 && v[i+1] == 0x85 ||
		c == 0xE2 && v[i+1] == 0x80 && (v[i+2] == 0xA8 || v[i+2] == 0xA9)
}

// resolvesToString reports whether a plain scalar with this text would read
// back as a string under yaml.v3's resolver (core schema plus timestamps,
// base prefixes and underscores); otherwise it must be quoted.
func resolvesToString(v []byte) bool {
	if len(v) == 0 {
		return false // null
	}
	switch c := v[0]; {
	case c == '+' || c == '-' || '0' <= c && c <= '9':
		return !resolvesToNumberOrTime(string(v))
	case c == '.':
		switch string(v) {
		case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF":
			return false
		}
		_, err := strconv.ParseFloat(string(v), 64)
		return err != nil
	case strings.IndexByte("yYnNtTfFoO~", c) >= 0:
		switch string(v) {
		case "true", "True", "TRUE", "false", "False", "FALSE", "~", "null", "Null", "NULL":
			return false
		}
	}
	return true
}

func resolvesToNumberOrTime(s string) bool {
	switch s {
	case "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF":
		return true
	}
	if isTimestamp(s) {
		return true
	}
	plain := strings.ReplaceAll(s, "_", "")
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return true
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return true
	}
	if isYAMLFloat(plain) {
		if _, err := strconv.ParseFloat(plain, 64); err == nil {
			return true
		}
	}
	var digits string
	base := 0
	switch {
	case strings.HasPrefix(plain, "0b"):
		digits, base = plain[2:], 2
	case strings.HasPrefix(plain, "-0b"):
		digits, base = "-"+plain[3:], 2
	case strings.HasPrefix(plain, "0o"):
		digits, base = plain[2:], 8
	case strings.HasPrefix(plain, "-0o"):
		digits, base = "-"+plain[3:], 8
	default:
		return false
	}
	if _, err := strconv.ParseInt(digits, base, 64); err == nil {
		return true
	}
	if !strings.HasPrefix(digits, "-") {
		if _, err := strconv.ParseUint(digits, base, 64); err == nil {
			return true
		}
	}
	return false
}

// isYAMLFloat matches ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$.
func isYAMLFloat(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// timestampLayouts are the layouts yaml.v3 reads a plain scalar as a
// timestamp with, after checking it starts with four digits and a dash.
var timestampLayouts = [...]string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

// isRFC3339 recognizes, without time.Parse, the common timestamp
// 2024-01-02T03:04:05(.000)Z or ...+01:00 with every field in range: a
// subset of what the first layout accepts. Anything else is left to
// time.Parse.
func isRFC3339(s string) bool {
	if len(s) < 20 || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return false
	}
	num := func(i int) int {
		if s[i] < '0' || s[i] > '9' || s[i+1] < '0' || s[i+1] > '9' {
			return -1
		}
		return int(s[i]-'0')*10 + int(s[i+1]-'0')
	}
	year := num(0)*100 + num(2)
	month, day, hour, minute, sec := num(5), num(8), num(11), num(14), num(17)
	if num(0) < 0 || num(2) < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || sec < 0 || sec > 59 {
		return false
	}
	days := [...]int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[month-1]
	if month == 2 && year%4 == 0 && (year%100 != 0 || year%400 == 0) {
		days = 29
	}
	if day > days {
		return false
	}
	rest := s[19:]
	if rest[0] == '.' {
		n := 1
		for n < len(rest) && '0' <= rest[n] && rest[n] <= '9' {
			n++
		}
		if n == 1 {
			return false
		}
		rest = rest[n:]
	}
	switch {
	case rest == "Z":
		return true
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		h, m := num(len(s)-5), num(len(s)-2)
		return h >= 0 && h <= 23 && m >= 0 && m <= 59
	}
	return false
}

func isTimestamp(s string) bool {
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	if isRFC3339(s) {
		return true
	}
	for _, layout := range timestampLayouts {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}
