package output

import (
	"bufio"
)

// writeCompactJSON writes data without insignificant whitespace: the same
// bytes json.Compact makes, streamed. Runs of the input between whitespace
// are written as they are, so an answer without whitespace is checked whole
// and then written in one piece.
func writeCompactJSON(w *bufio.Writer, data []byte) error {
	r := &jsonReader{data: data}
	c := compactor{r: r, w: w}
	if err := c.value(); err != nil {
		return err
	}
	c.flushTo(r.pos)
	if err := r.end(); err != nil {
		return err
	}
	return w.WriteByte('\n')
}

type compactor struct {
	r     *jsonReader
	w     *bufio.Writer
	start int // first byte not yet written
}

// flushTo writes the pending run up to end.
func (c *compactor) flushTo(end int) {
	if end > c.start {
		c.w.Write(c.r.data[c.start:end])
	}
	c.start = end
}

// ws skips whitespace, first writing what precedes it.
func (c *compactor) ws() {
	r := c.r
	if r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\t', '\n', '\r':
			c.flushTo(r.pos)
			r.ws()
			c.start = r.pos
		}
	}
}

func (c *compactor) value() error {
	r := c.r
	c.ws()
	switch r.peek() {
	case '{':
		if err := r.enter(); err != nil {
			return err
		}
		r.pos++
		c.ws()
		if r.peek() == '}' {
			r.pos++
			r.depth--
			return nil
		}
		for {
			c.ws()
			if r.peek() != '"' {
				return r.unexpected("looking for beginning of object key string")
			}
			if _, _, err := r.str(); err != nil {
				return err
			}
			c.ws()
			if r.peek() != ':' {
				return r.unexpected("after object key")
			}
			r.pos++
			if err := c.value(); err != nil {
				return err
			}
			c.ws()
			switch r.peek() {
			case ',':
				r.pos++
			case '}':
				r.pos++
				r.depth--
				return nil
			default:
				return r.unexpected("after object key:value pair")
			}
		}
	case '[':
		if err := r.enter(); err != nil {
			return err
		}
		r.pos++
		c.ws()
		if r.peek() == ']' {
			r.pos++
			r.depth--
			return nil
		}
		for {
			if err := c.value(); err != nil {
				return err
			}
			c.ws()
			switch r.peek() {
			case ',':
				r.pos++
			case ']':
				r.pos++
				r.depth--
				return nil
			default:
				return r.unexpected("after array element")
			}
		}
	default:
		_, err := r.skip()
		return err
	}
}

// writeIndentedJSON writes data as json.Indent(dst, data, "", "  ") does:
// one member or element per line, empty objects and arrays as {} and [],
// every scalar's text as received.
func writeIndentedJSON(w *bufio.Writer, data []byte) error {
	in := indenter{r: &jsonReader{data: data}, w: w}
	if err := in.value(0); err != nil {
		return err
	}
	if err := in.r.end(); err != nil {
		return err
	}
	return w.WriteByte('\n')
}

type indenter struct {
	r *jsonReader
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
	switch r.peek() {
	case '{':
		w.WriteByte('{')
		first := true
		err := r.object(func(key []byte, _ bool) error {
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
		err := r.array(func() error {
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
		text, err := r.skip()
		if err != nil {
			return err
		}
		_, err = w.Write(text)
		return err
	}
}
