package output

import (
	"bufio"

	"github.com/orgctl/orgctl/output/jsonscan"
)

// writeCompactJSON writes data without insignificant whitespace: the same
// bytes json.Compact makes, streamed. Runs of the input between whitespace
// are written as they are, so an answer without whitespace is checked whole
// and then written in one piece.
func writeCompactJSON(w *bufio.Writer, data []byte) error {
	r := &jsonscan.Reader{Data: data}
	start := 0 // first byte not yet written
	r.Skipped = func(from, to int) {
		if from > start {
			w.Write(data[start:from])
		}
		start = to
	}
	if _, err := r.Skip(); err != nil {
		return err
	}
	w.Write(data[start:r.Pos])
	r.Skipped = nil
	if err := r.End(); err != nil {
		return err
	}
	return w.WriteByte('\n')
}

// writeIndentedJSON writes data as json.Indent(dst, data, "", "  ") does:
// one member or element per line, empty objects and arrays as {} and [],
// every scalar's text as received.
func writeIndentedJSON(w *bufio.Writer, data []byte) error {
	in := indenter{r: &jsonscan.Reader{Data: data}, w: w}
	if err := in.value(0); err != nil {
		return err
	}
	if err := in.r.End(); err != nil {
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
