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
	c := compactor{r: r, w: w}
	if err := c.value(); err != nil {
		return err
	}
	c.flushTo(r.Pos)
	if err := r.End(); err != nil {
		return err
	}
	return w.WriteByte('\n')
}

type compactor struct {
	r     *jsonscan.Reader
	w     *bufio.Writer
	start int // first byte not yet written
}

// flushTo writes the pending run up to end.
func (c *compactor) flushTo(end int) {
	if end > c.start {
		c.w.Write(c.r.Data[c.start:end])
	}
	c.start = end
}

// ws skips whitespace, first writing what precedes it.
func (c *compactor) ws() {
	r := c.r
	if r.Pos < len(r.Data) {
		switch r.Data[r.Pos] {
		case ' ', '\t', '\n', '\r':
			c.flushTo(r.Pos)
			r.WS()
			c.start = r.Pos
		}
	}
}

func (c *compactor) value() error {
	r := c.r
	c.ws()
	switch r.Peek() {
	case '{':
		if err := r.Enter(); err != nil {
			return err
		}
		r.Pos++
		c.ws()
		if r.Peek() == '}' {
			r.Pos++
			r.Leave()
			return nil
		}
		for {
			c.ws()
			if r.Peek() != '"' {
				return r.Unexpected("looking for beginning of object key string")
			}
			if _, _, err := r.Str(); err != nil {
				return err
			}
			c.ws()
			if r.Peek() != ':' {
				return r.Unexpected("after object key")
			}
			r.Pos++
			if err := c.value(); err != nil {
				return err
			}
			c.ws()
			switch r.Peek() {
			case ',':
				r.Pos++
			case '}':
				r.Pos++
				r.Leave()
				return nil
			default:
				return r.Unexpected("after object key:value pair")
			}
		}
	case '[':
		if err := r.Enter(); err != nil {
			return err
		}
		r.Pos++
		c.ws()
		if r.Peek() == ']' {
			r.Pos++
			r.Leave()
			return nil
		}
		for {
			if err := c.value(); err != nil {
				return err
			}
			c.ws()
			switch r.Peek() {
			case ',':
				r.Pos++
			case ']':
				r.Pos++
				r.Leave()
				return nil
			default:
				return r.Unexpected("after array element")
			}
		}
	default:
		_, err := r.Skip()
		return err
	}
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
