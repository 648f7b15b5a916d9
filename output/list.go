package output

import (
	"bufio"
	"runtime"

	"github.com/orgctl/orgctl/output/jsonscan"
)

// A listWriter writes the elements of a list one at a time. Once it has
// written the first, fork makes another that writes any later element as it
// would, so that elements can be written on several goroutines.
type listWriter interface {
	element(w *bufio.Writer, r *jsonscan.Reader) error
	fork() (listWriter, error)
	// ended reports whether the last element written ended its line: a
	// fork cannot know, and starts its first element with a line break
	// that is then one too many.
	ended() bool
	// closing is what follows the last element, given whether it ended.
	closing(ended bool) []byte
}

// listBatch is how many bytes of elements go to a goroutine at a time:
// enough that handing them over costs nothing beside writing them.
var listBatch = 256 << 10

// renderList writes the list at r's position, which has at least one
// element (see isFilledList), with lw, as writing each element in turn
// would, and returns the output's pieces in order. While the list is still
// arriving (r.Arriving), elements are written here in turn: the goroutine
// receiving it needs a CPU too. The rest go in batches to one goroutine per
// CPU, each checking its batch as fully as reading it in turn would, while
// this one only finds where elements end and checks the commas and
// brackets between them. ok is false when the list cannot be written.
func renderList(r *jsonscan.Reader, lw listWriter) (pieces [][]byte, ok bool) {
	var first spool
	w := bufio.NewWriterSize(&first, outBufferSize)
	if r.Peek() != '[' || r.Enter() != nil {
		return nil, false
	}
	r.Pos++
	r.WS()
	if err := lw.element(w, r); err != nil {
		return nil, false
	}
	for r.Arriving != nil && r.Arriving() {
		if r.Peek() != ',' {
			break // the end, or not a list: the loop below says which
		}
		r.Pos++
		r.WS()
		if err := lw.element(w, r); err != nil {
			return nil, false
		}
	}
	w.Flush()

	ended := lw.ended()
	type batch struct {
		data  []byte
		out   [][]byte
		ended bool
		err   error
		done  chan struct{}
	}
	jobs := make(chan *batch, 16)
	var batches []*batch
	workers := max(1, runtime.GOMAXPROCS(0))
	for range workers {
		fw, err := lw.fork()
		if err != nil {
			close(jobs)
			return nil, false
		}
		go func() {
			var s spool
			bw := bufio.NewWriterSize(&s, outBufferSize)
			for b := range jobs {
				b.err = writeBatch(bw, b.data, fw)
				bw.Flush()
				b.out, b.ended = s.take(), fw.ended()
				close(b.done)
			}
		}()
	}
	send := func(data []byte) {
		b := &batch{data: data, done: make(chan struct{})}
		batches = append(batches, b)
		jobs <- b
	}
	ok = func() bool {
		start, stop := -1, 0 // the batch being gathered
		for {
			switch r.Peek() {
			case ']':
				r.Pos++
				r.Leave()
				if start >= 0 {
					send(r.Data[start:stop])
				}
				return true
			case ',':
				r.Pos++
			default:
				return false
			}
			r.WS()
			if start < 0 {
				start = r.Pos
			}
			r.Checked = true // only the element's end is looked for here
			_, err := r.Skip()
			r.Checked = false
			if err != nil {
				return false
			}
			if stop = r.Pos; stop-start >= listBatch {
				send(r.Data[start:stop])
				start = -1
			}
		}
	}()
	close(jobs)
	pieces = first.take()
	for _, b := range batches {
		<-b.done
		if b.err != nil {
			ok = false
			continue
		}
		if ended {
			// The line break the fork started with, which the
			// element before made one too many.
			if len(b.out) == 0 || b.out[0][0] != '\n' {
				ok = false
				continue
			}
			b.out[0] = b.out[0][1:]
		}
		pieces = append(pieces, b.out...)
		ended = b.ended
	}
	if c := lw.closing(ended); len(c) > 0 {
		pieces = append(pieces, c)
	}
	return pieces, ok
}

// writeBatch writes the elements in data, a run of the list's elements and
// the commas between them, checking it as reading the list would.
func writeBatch(w *bufio.Writer, data []byte, lw listWriter) error {
	r := &jsonscan.Reader{Data: data}
	if err := r.Enter(); err != nil { // the elements are inside the list
		return err
	}
	for {
		r.WS()
		if err := lw.element(w, r); err != nil {
			return err
		}
		if r.Peek() == ',' {
			r.Pos++
			continue
		}
		if r.Pos >= len(data) {
			return nil
		}
		return r.Unexpected("after array element")
	}
}
