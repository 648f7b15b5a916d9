package output

import (
	"bufio"
	"bytes"
	"runtime"

	"github.com/orgctl/orgctl/output/jsonscan"
)

// A listWriter writes the elements of a list one at a time. Once it has
// written the first, fork makes another that writes any later element as it
// would, so that elements can be written on several goroutines; fork only
// reads the writer it forks, and may run on several goroutines at once.
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

// listBatch is about how many bytes of elements go to a goroutine at a
// time: enough that handing them over costs nothing beside writing them.
var listBatch = 256 << 10

// renderList writes the list at r's position, which has at least one
// element (see isFilledList), with lw, as writing each element in turn
// would, and returns the output's pieces in order. ok is false when the
// list cannot be written.
//
// While the list is still arriving (r.Arriving), elements are written here
// in turn: the goroutine receiving it needs a CPU too. The rest is cut into
// runs of about listBatch bytes, written on one goroutine per CPU. Where a
// run starts is a guess, made without reading what comes before: the first
// comma from the cut on that is followed by what the first element starts
// with (see listSeparators). Each goroutine checks its run as fully as
// reading in turn would, and stops at the first comma between elements
// past the next run's guess; the guess was right when that is the comma the
// next run started at. A wrong guess, which a list whose elements hold
// lists of like elements can cause, has its run written again from the
// right comma, here.
func renderList(r *jsonscan.Reader, lw listWriter) (pieces [][]byte, ok bool) {
	first := spool{arena: new(arena)}
	w := bufio.NewWriterSize(&first, outBufferSize)
	if r.Peek() != '[' || r.Enter() != nil {
		return nil, false
	}
	r.Pos++
	r.WS()
	elementStart := r.Pos
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
	pieces = first.take()

	// The rest of the list is in, or the answer ended: take all of it.
	for r.More != nil && r.More() {
	}
	if c := r.Peek(); c != ',' && c != ']' {
		return nil, false
	}
	list := r.Mark() // inside the list, at the comma or bracket
	data := r.Data
	cuts := listSeparators(data, r.Pos, elementStart)
	runs := make([]*listRun, len(cuts))
	jobs := make(chan *listRun, len(cuts))
	for i, from := range cuts {
		until := len(data) // the last run reads to the list's end
		if i+1 < len(cuts) {
			until = cuts[i+1]
		}
		runs[i] = &listRun{from: from, until: until, done: make(chan struct{})}
		jobs <- runs[i]
	}
	close(jobs)
	for range min(len(runs), max(1, runtime.GOMAXPROCS(0))) {
		go func() {
			s := spool{arena: first.arena}
			bw := bufio.NewWriterSize(&s, outBufferSize)
			for run := range jobs {
				run.write(data, list, lw, bw, &s)
				close(run.done)
			}
		}()
	}

	ended := lw.ended()
	at := list.Pos() // the comma or bracket the next run must start at
	ok = true
	for i, run := range runs {
		<-run.done
		if !ok || data[at] == ']' {
			continue // nothing more to take; let every run finish
		}
		if run.from != at {
			// A wrong guess: write the run from the right comma.
			redo := &listRun{from: at, until: run.until}
			redo.write(data, list, lw, w, &first)
			run = redo
		}
		if run.err != nil {
			ok = false
			continue
		}
		if ended && len(run.out) > 0 {
			// The line break the fork started with, which the
			// element before made one too many.
			if run.out[0][0] != '\n' {
				ok = false
				continue
			}
			run.out[0] = run.out[0][1:]
		}
		if len(run.out) > 0 {
			pieces = append(pieces, run.out...)
			ended = run.ended
		}
		at = run.end
		runs[i] = nil
	}
	if !ok || data[at] != ']' {
		return nil, false
	}
	r.Reset(list)
	r.Pos = at + 1
	r.Leave()
	if c := lw.closing(ended); len(c) > 0 {
		pieces = append(pieces, c)
	}
	return pieces, true
}

// A listRun is the part of a list written on one goroutine: the elements
// after the comma at from, up to the first comma between elements at or
// after until, or to the list's closing bracket.
type listRun struct {
	from, until int
	out         [][]byte
	end         int // the comma or bracket after the last element written
	ended       bool
	err         error
	done        chan struct{}
}

// write writes the run's elements from data, a reader at list's depth
// reading them with a fork of lw made for this run alone, into bw, which
// flushes into s.
func (run *listRun) write(data []byte, list jsonscan.Mark, lw listWriter, bw *bufio.Writer, s *spool) {
	fw, err := lw.fork()
	if err != nil {
		run.err = err
		return
	}
	r := &jsonscan.Reader{Data: data}
	r.Reset(list)
	r.Pos = run.from
	for {
		c := r.Peek()
		if c == ']' || (c == ',' && r.Pos >= run.until && r.Pos > run.from) {
			break
		}
		if c != ',' {
			run.err = r.Unexpected("after array element")
			break
		}
		r.Pos++
		r.WS()
		if run.err = fw.element(bw, r); run.err != nil {
			break
		}
	}
	bw.Flush()
	run.out, run.end, run.ended = s.take(), r.Pos, fw.ended()
}

// listSeparators returns where the runs of the list in data start: from,
// the comma (or bracket) after the elements already written, then a comma
// about every listBatch bytes that is followed, past any whitespace, by
// what the list's first element, at first, starts with: its opening and
// first key when it is an object, else its first byte. A comma inside a
// string is never followed by an unescaped quote, so the guesses that are
// wrong are commas inside elements.
func listSeparators(data []byte, from, first int) []int {
	mark := data[first : first+1]
	if data[first] == '{' {
		r := &jsonscan.Reader{Data: data[:len(data):len(data)], Pos: first + 1}
		if r.Peek() == '"' {
			if _, _, err := r.Str(); err == nil && r.Pos-first <= 64 {
				mark = data[first:r.Pos]
			}
		}
	}
	cuts := []int{from}
	for at := from + listBatch; at < len(data); {
		i := bytes.IndexByte(data[at:], ',')
		if i < 0 {
			break
		}
		at += i
		j := at + 1
		for j < len(data) && (data[j] == ' ' || data[j] == '\t' || data[j] == '\n' || data[j] == '\r') {
			j++
		}
		if bytes.HasPrefix(data[j:], mark) {
			cuts = append(cuts, at)
			at += listBatch
			continue
		}
		at++
	}
	return cuts
}
