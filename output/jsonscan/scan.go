package jsonscan

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"
)

// Reader walks JSON text in place and checks it as it goes, so a printer
// can stream a large answer element by element without decoding it whole or
// copying it. Its grammar is encoding/json's, nesting limit included.
type Reader struct {
	Data []byte
	Pos  int
	// Skipped, when set, is told of each run of whitespace the reader
	// steps over, so a writer can copy everything else as it is.
	Skipped func(from, to int)
	// More, when set, is called when the reader needs bytes past the end of
	// Data, so text can be checked while the rest of it is still arriving:
	// it waits for more, extends Data over the same backing array (slices
	// already returned stay valid) and reports whether it did. false means
	// the text ends at len(Data).
	More func() bool
	// Arriving, when set, reports whether more of the text may still come:
	// a reader with work to share out can wait until it is all in, rather
	// than take time from the one receiving it.
	Arriving func() bool
	// Checked says Data is known to be valid JSON (it was read whole once
	// already): Skip then finds a value's end without checking it again.
	Checked bool
	depth   int
}

// need reports whether Data holds at least n bytes, asking More for them.
func (r *Reader) need(n int) bool {
	for len(r.Data) < n {
		if r.More == nil || !r.More() {
			return false
		}
	}
	return true
}

// MaxDepth is encoding/json's nesting limit: deeper input is invalid there.
const MaxDepth = 10000

// SyntaxError says what was wrong and where, like encoding/json's.
type SyntaxError struct {
	msg    string
	offset int
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s at offset %d", e.msg, e.offset) }

// Fail reports msg at the current position.
func (r *Reader) Fail(msg string) error { return &SyntaxError{msg, r.Pos} }

// Unexpected reports the byte at the current position (or the end) as
// out of place in context.
func (r *Reader) Unexpected(context string) error {
	if r.Pos >= len(r.Data) {
		return &SyntaxError{"unexpected end of JSON input", r.Pos}
	}
	return &SyntaxError{fmt.Sprintf("invalid character %q %s", r.Data[r.Pos], context), r.Pos}
}

// WS skips insignificant whitespace, telling Skipped what it skipped.
func (r *Reader) WS() {
	if r.Pos < len(r.Data) && r.Data[r.Pos] > ' ' {
		return // the usual case: an answer without whitespace
	}
	start := r.Pos
	for r.need(r.Pos + 1) {
		switch r.Data[r.Pos] {
		case ' ', '\t', '\n', '\r':
			r.Pos++
			continue
		}
		break
	}
	if r.Skipped != nil && r.Pos > start {
		r.Skipped(start, r.Pos)
	}
}

// Peek skips whitespace and returns the next byte, 0 at the end (and at a
// NUL byte, which is never valid outside a string either).
func (r *Reader) Peek() byte {
	r.WS()
	if r.Pos < len(r.Data) {
		return r.Data[r.Pos]
	}
	return 0
}

// End checks that nothing but whitespace follows the value.
func (r *Reader) End() error {
	if r.WS(); r.Pos < len(r.Data) {
		return r.Unexpected("after top-level value")
	}
	return nil
}

// strPlain reports string bytes that need no attention: printable ASCII
// other than the quote and the backslash. A bitmap (bit c%64 of word c/64)
// rather than comparisons, as the loop over a string's bytes runs for
// every byte of an answer; a constant rather than a table built at start,
// so nothing runs before main. TestStrPlainBits holds it to its definition.
func strPlain(c byte) bool { return strPlainBits[c>>6]&(1<<(c&63)) != 0 }

var strPlainBits = [4]uint64{0xfffffffb00000000, 0xffffffffefffffff, 0, 0}

// Str reads a string at Pos (which must be '"') and returns its raw
// contents between the quotes. plain is true when the contents are the
// decoded string as is: no escapes and nothing but ASCII.
func (r *Reader) Str() (raw []byte, plain bool, err error) {
	d := r.Data
	i := r.Pos + 1
	start := i
	plain = true
	for {
		// Eight bytes at a time: either all need no look, or the lowest
		// flagged byte is the first that does (borrows only carry upward).
		for i+8 <= len(d) {
			if m := needsLook(binary.LittleEndian.Uint64(d[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		for i < len(d) && strPlain(d[i]) {
			i++
		}
		if i >= len(d) {
			if r.need(i + 1) {
				d = r.Data
				continue
			}
			r.Pos = i
			return nil, false, r.Unexpected("in string literal")
		}
		switch c := d[i]; {
		case c == '"':
			r.Pos = i + 1
			return d[start:i], plain, nil
		case c == '\\':
			plain = false
			if !r.need(i + 2) {
				r.Pos = i + 1
				return nil, false, r.Unexpected("in string escape code")
			}
			d = r.Data
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				r.need(i + 6)
				d = r.Data
				for k := 2; k < 6; k++ {
					if i+k >= len(d) || !isHex(d[i+k]) {
						r.Pos = i + k
						return nil, false, r.Unexpected("in \\u hexadecimal character escape")
					}
				}
				i += 6
			default:
				r.Pos = i + 1
				return nil, false, r.Unexpected("in string escape code")
			}
		case c < 0x20:
			r.Pos = i
			return nil, false, r.Unexpected("in string literal")
		default: // non-ASCII: decoding checks it is UTF-8
			plain = false
			i++
		}
	}
}

const (
	loBits = 0x0101010101010101
	hiBits = 0x8080808080808080
)

// needsLook sets the high bit of each of the eight bytes in x that is a
// quote, a backslash, a control character or not ASCII. Bits above the
// lowest may be set wrongly (a borrow carries into the next byte), never
// below it.
func needsLook(x uint64) uint64 {
	q := x ^ ('"' * loBits)
	b := x ^ ('\\' * loBits)
	return ((q-loBits)&^q | (b-loBits)&^b | (x-0x20*loBits)&^x | x) & hiBits
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// Number reads a number at Pos and returns its text.
func (r *Reader) Number() ([]byte, error) {
	start := r.Pos
	for {
		num, err := r.number()
		// A number that runs to the end of Data may go on in bytes still
		// to come: read it again once they are there.
		if r.Pos < len(r.Data) || !r.need(len(r.Data)+1) {
			return num, err
		}
		r.Pos = start
	}
}

func (r *Reader) number() ([]byte, error) {
	d := r.Data
	start := r.Pos
	i := start
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && '1' <= d[i] && d[i] <= '9':
		for i++; i < len(d) && '0' <= d[i] && d[i] <= '9'; i++ {
		}
	default:
		r.Pos = i
		return nil, r.Unexpected("in numeric literal")
	}
	if i < len(d) && d[i] == '.' {
		i++
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			r.Pos = i
			return nil, r.Unexpected("after decimal point in numeric literal")
		}
		for i++; i < len(d) && '0' <= d[i] && d[i] <= '9'; i++ {
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			r.Pos = i
			return nil, r.Unexpected("in exponent of numeric literal")
		}
		for i++; i < len(d) && '0' <= d[i] && d[i] <= '9'; i++ {
		}
	}
	r.Pos = i
	return d[start:i], nil
}

// Literal reads true, false or null at pos.
func (r *Reader) Literal() ([]byte, error) {
	var want string
	switch r.Data[r.Pos] {
	case 't':
		want = "true"
	case 'f':
		want = "false"
	default:
		want = "null"
	}
	start := r.Pos
	for k := 0; k < len(want); k++ {
		if !r.need(r.Pos+1) || r.Data[r.Pos] != want[k] {
			return nil, r.Unexpected("in literal " + want)
		}
		r.Pos++
	}
	return r.Data[start:r.Pos], nil
}

// A Mark is a place in the text to come back to with Reset.
type Mark struct{ pos, depth int }

// Mark returns the current place.
func (r *Reader) Mark() Mark { return Mark{r.Pos, r.depth} }

// Pos is the mark's offset in Data.
func (m Mark) Pos() int { return m.pos }

// Reset goes back to m, undoing the nesting of any value left part-read, so
// the text from m on can be read again another way.
func (r *Reader) Reset(m Mark) { r.Pos, r.depth = m.pos, m.depth }

// Enter counts one level of nesting; Leave ends it.
func (r *Reader) Enter() error {
	r.depth++
	if r.depth > MaxDepth {
		return r.Fail("exceeded max depth")
	}
	return nil
}

func (r *Reader) Leave() { r.depth-- }

// Skip reads one value of any kind, checking it, and returns its text.
func (r *Reader) Skip() ([]byte, error) {
	if r.Checked {
		return r.skipChecked()
	}
	// Peek may skip blanks: each value starts where it finds it.
	var start int
	var err error
	switch r.Peek() {
	case '{':
		start = r.Pos
		err = r.Object(func([]byte, bool) error { _, err := r.Skip(); return err })
	case '[':
		start = r.Pos
		err = r.Array(func() error { _, err := r.Skip(); return err })
	case '"':
		start = r.Pos
		_, _, err = r.Str()
	case 't', 'f', 'n':
		start = r.Pos
		_, err = r.Literal()
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		start = r.Pos
		_, err = r.Number()
	default:
		return nil, r.Unexpected("looking for beginning of value")
	}
	if err != nil {
		return nil, err
	}
	return r.Data[start:r.Pos], nil
}

// skipChecked is Skip over text known to be valid: it only looks for the
// value's end, matching brackets outside strings, and asks More for bytes
// while the value goes on. On text that is not valid after all it still
// stays within Data and ends.
func (r *Reader) skipChecked() ([]byte, error) {
	r.WS()
	start := r.Pos
	if !r.need(start + 1) {
		return nil, r.Unexpected("looking for beginning of value")
	}
	depth := 0
	i := start
	for {
		d := r.Data
	scan:
		for i < len(d) {
			switch d[i] {
			case '"':
				end := stringEnd(d, i+1)
				if end < 0 {
					break scan // read the string again once more has come
				}
				i = end
				if depth == 0 {
					r.Pos = i
					return d[start:i], nil
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth == 0 { // the end of a scalar in a container
					r.Pos = i
					return d[start:i], nil
				}
				if depth--; depth == 0 {
					r.Pos = i + 1
					return d[start:r.Pos], nil
				}
			case ',', ' ', '\t', '\n', '\r':
				if depth == 0 {
					r.Pos = i
					return d[start:i], nil
				}
			}
			i++
		}
		if !r.need(len(d) + 1) {
			break
		}
	}
	r.Pos = len(r.Data)
	return r.Data[start:r.Pos], nil
}

// stringEnd returns the index after the quote that closes the string whose
// contents start at i, or -1 when none does.
func stringEnd(d []byte, i int) int {
	for {
		q := bytes.IndexByte(d[i:], '"')
		if q < 0 {
			return -1
		}
		q += i
		// The quote is escaped when an odd number of backslashes precede it.
		n := 0
		for q-1-n >= i && d[q-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		i = q + 1
	}
}

// Object reads an object at Pos ('{'), calling member with each key's raw
// contents and plainness, positioned at the key's value, which member must
// read.
func (r *Reader) Object(member func(key []byte, plain bool) error) error {
	return r.object(nil, member, nil)
}

// A Shape remembers the keys of the objects read with it, in order: the
// objects of a list tend to repeat their first one's keys. Reading the next
// object with its Shape compares the text at each key with the key
// remembered at that place, and steps over it when the bytes agree, instead
// of scanning it again. The zero Shape remembers nothing yet.
type Shape struct{ keys []shapeKey }

type shapeKey struct {
	raw   []byte // the key's raw contents, as Str returned them
	lit   []byte // the key's text from its opening quote to the colon, when nothing lies between them
	plain bool
}

// MaxShapeKeys is how many keys of an object a Shape remembers: enough for
// a record, while an object used as a large map is not kept whole.
const MaxShapeKeys = 64

// ObjectShaped is Object reading with the keys remembered in s (which may
// be nil). member is told each key's place k in the object, or -1 from the
// MaxShapeKeys-th key on, and whether the key is the one s remembered at k
// (known): a caller can keep what it made of each key by its place, and
// make it again when known is false.
func (r *Reader) ObjectShaped(s *Shape, member func(k int, known bool, key []byte, plain bool) error) error {
	return r.object(s, nil, member)
}

// object is Object when member is set, else ObjectShaped: one loop, which
// Object's callers (every reader of a record) do not pay an adapter for.
func (r *Reader) object(s *Shape, member func(key []byte, plain bool) error, shaped func(k int, known bool, key []byte, plain bool) error) error {
	if err := r.Enter(); err != nil {
		return err
	}
	r.Pos++
	if r.Peek() == '}' {
		r.Pos++
		r.depth--
		return nil
	}
	for k := 0; ; k++ {
		var key []byte
		var plain, known bool
		if s != nil && k < len(s.keys) && s.keys[k].lit != nil && bytes.HasPrefix(r.Data[r.Pos:], s.keys[k].lit) {
			// The same bytes as a key already read and checked, and its
			// colon.
			sk := &s.keys[k]
			key, plain, known = sk.raw, sk.plain, true
			r.Pos += len(sk.lit)
		} else {
			if r.Peek() != '"' {
				return r.Unexpected("looking for beginning of object key string")
			}
			start := r.Pos
			var err error
			if key, plain, err = r.Str(); err != nil {
				return err
			}
			end := r.Pos
			if r.Peek() != ':' {
				return r.Unexpected("after object key")
			}
			r.Pos++
			if s != nil {
				var lit []byte
				if r.Pos == end+1 { // no whitespace before the colon
					lit = r.Data[start:r.Pos]
				}
				known = s.remember(k, key, lit, plain)
			}
		}
		r.WS()
		var err error
		if member != nil {
			err = member(key, plain)
		} else {
			place := k
			if k >= MaxShapeKeys {
				place = -1
			}
			err = shaped(place, known, key, plain)
		}
		if err != nil {
			return err
		}
		switch r.Peek() {
		case ',':
			r.Pos++
		case '}':
			r.Pos++
			r.depth--
			return nil
		default:
			return r.Unexpected("after object key:value pair")
		}
	}
}

// remember makes key the one at place k, unless k is past what s keeps,
// and reports whether it already was.
func (s *Shape) remember(k int, key, lit []byte, plain bool) (known bool) {
	if k >= MaxShapeKeys {
		return false
	}
	if k < len(s.keys) {
		sk := &s.keys[k]
		if bytes.Equal(sk.raw, key) {
			if sk.lit == nil {
				sk.lit = lit
			}
			return true
		}
		*sk = shapeKey{raw: key, lit: lit, plain: plain}
		return false
	}
	if k == len(s.keys) {
		s.keys = append(s.keys, shapeKey{raw: key, lit: lit, plain: plain})
	}
	return false
}

// Array reads an array at Pos ('['), calling elem positioned at each
// element, which elem must read.
func (r *Reader) Array(elem func() error) error {
	if err := r.Enter(); err != nil {
		return err
	}
	r.Pos++
	if r.Peek() == ']' {
		r.Pos++
		r.depth--
		return nil
	}
	for {
		r.WS()
		if err := elem(); err != nil {
			return err
		}
		switch r.Peek() {
		case ',':
			r.Pos++
		case ']':
			r.Pos++
			r.depth--
			return nil
		default:
			return r.Unexpected("after array element")
		}
	}
}

// Member reads the object at Pos ('{') and returns where the value of key
// starts and ends, the last one when the key repeats (as in a decoded
// map); start is -1 when the key is missing.
func (r *Reader) Member(key string, scratch *[]byte) (start, end int, err error) {
	start, end = -1, -1
	err = r.Object(func(k []byte, plain bool) error {
		s := r.Pos
		_, err := r.Skip()
		if string(Text(k, plain, scratch)) == key {
			start, end = s, r.Pos
		}
		return err
	})
	return start, end, err
}

// Unquote appends the decoded form of a string's raw contents (as Str
// returned them) to dst, as encoding/json decodes it: invalid UTF-8 and
// unpaired surrogates become U+FFFD.
func Unquote(dst, raw []byte) []byte {
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\':
			switch raw[i+1] {
			case 'b':
				dst = append(dst, '\b')
			case 'f':
				dst = append(dst, '\f')
			case 'n':
				dst = append(dst, '\n')
			case 'r':
				dst = append(dst, '\r')
			case 't':
				dst = append(dst, '\t')
			case 'u':
				rr := hex4(raw[i+2:])
				i += 6
				if utf16.IsSurrogate(rr) {
					if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
						if dec := utf16.DecodeRune(rr, hex4(raw[i+2:])); dec != utf8.RuneError {
							dst = utf8.AppendRune(dst, dec)
							i += 6
							continue
						}
					}
					rr = utf8.RuneError
				}
				dst = utf8.AppendRune(dst, rr)
				continue
			default: // '"', '\\', '/'
				dst = append(dst, raw[i+1])
			}
			i += 2
		case c < utf8.RuneSelf:
			j := i + 1
			for j < len(raw) && raw[j] < utf8.RuneSelf && raw[j] != '\\' {
				j++
			}
			dst = append(dst, raw[i:j]...)
			i = j
		default:
			rr, size := utf8.DecodeRune(raw[i:])
			if rr == utf8.RuneError && size == 1 {
				dst = utf8.AppendRune(dst, utf8.RuneError)
			} else {
				dst = append(dst, raw[i:i+size]...)
			}
			i += size
		}
	}
	return dst
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// Text returns a string's decoded contents, using scratch when decoding is
// needed; the result is only valid until scratch is reused.
func Text(raw []byte, plain bool, scratch *[]byte) []byte {
	if plain {
		return raw
	}
	*scratch = Unquote((*scratch)[:0], raw)
	return *scratch
}

// Value reads one value into the types encoding/json decodes into `any` with
// UseNumber: map[string]any, []any, string, json.Number, bool and nil.
func (r *Reader) Value(scratch *[]byte) (any, error) {
	switch r.Peek() {
	case '{':
		m := map[string]any{}
		err := r.Object(func(key []byte, plain bool) error {
			k := string(Text(key, plain, scratch))
			v, err := r.Value(scratch)
			m[k] = v
			return err
		})
		return m, err
	case '[':
		a := []any{}
		err := r.Array(func() error {
			v, err := r.Value(scratch)
			a = append(a, v)
			return err
		})
		return a, err
	case '"':
		raw, plain, err := r.Str()
		if err != nil {
			return nil, err
		}
		return string(Text(raw, plain, scratch)), nil
	case 't', 'f', 'n':
		lit, err := r.Literal()
		if err != nil {
			return nil, err
		}
		switch lit[0] {
		case 't':
			return true, nil
		case 'f':
			return false, nil
		}
		return nil, nil
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		num, err := r.Number()
		return json.Number(num), err
	}
	return nil, r.Unexpected("looking for beginning of value")
}

// Decode decodes one whole JSON text as encoding/json does into `any` with UseNumber.
func Decode(data []byte) (any, error) {
	r := &Reader{Data: data}
	var scratch []byte
	v, err := r.Value(&scratch)
	if err == nil {
		err = r.End()
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}
