package output

import (
	"bufio"
	"bytes"
	"encoding/json"

	"github.com/orgctl/orgctl/output/jsonscan"
)

// compactValue writes the value without insignificant whitespace: the same
// bytes json.Compact makes, streamed. Runs of the input between whitespace
// are written as they are, so an answer without whitespace is checked whole
// and then written in one piece.
func compactValue(w *bufio.Writer, r *jsonscan.Reader, end func() error) error {
	start := r.Pos // first byte not yet written
	outer := r.Skipped
	r.Skipped = func(from, to int) {
		if outer != nil {
			outer(from, to)
		}
		if from > start {
			w.Write(r.Data[start:from])
		}
		start = to
	}
	_, err := r.Skip()
	r.Skipped = outer
	if err != nil {
		return err
	}
	w.Write(r.Data[start:r.Pos])
	if err := end(); err != nil {
		return err
	}
	return w.WriteByte('\n')
}

// indentedValue writes the value as json.Indent(dst, data, "", "  ") does:
// one member or element per line, empty objects and arrays as {} and [],
// every scalar's text as received.
func indentedValue(w *bufio.Writer, r *jsonscan.Reader, end func() error) error {
	in := indenter{r: r, w: w}
	if err := in.value(0); err != nil {
		return err
	}
	if err := end(); err != nil {
		return err
	}
	return w.WriteByte('\n')
}

type indenter struct {
	r *jsonscan.Reader
	w *bufio.Writer
}

func (in *indenter) newline(depth int) {
	in.w.WriteByte('\n')
	for ; depth > 0; depth-- {
		in.w.WriteString("  ")
	}
}

func (in *indenter) value(depth int) error {
	r, w := in.r, in.w
	switch r.Peek() {
	case '{':
		w.WriteByte('{')
		first := true
		err := r.Object(func(key []byte, _ bool) error {
			if !first {
				w.WriteByte(',')
			}
			first = false
			in.newline(depth + 1)
			w.WriteByte('"')
			w.Write(key)
			w.WriteString(`": `)
			return in.value(depth + 1)
		})
		if err != nil {
			return err
		}
		if !first {
			in.newline(depth)
		}
		return w.WriteByte('}')
	case '[':
		w.WriteByte('[')
		first := true
		err := r.Array(func() error {
			if !first {
				w.WriteByte(',')
			}
			first = false
			in.newline(depth + 1)
			return in.value(depth + 1)
		})
		if err != nil {
			return err
		}
		if !first {
			in.newline(depth)
		}
		return w.WriteByte(']')
	default:
		text, err := r.Skip()
		if err != nil {
			return err
		}
		_, err = w.Write(text)
		return err
	}
}

// MarshalText is json.Marshal without HTML escaping, for documents orgctl
// writes itself: actions say "Resources page > resource settings".
func MarshalText(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
