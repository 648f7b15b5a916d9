package ratebudget

import (
	"encoding/json"
	"strconv"
)

// The state is encoded and decoded by hand because encoding/json's reflection
// was most of each request's ledger overhead. appendState writes exactly what
// json.Marshal would; decodeState reads exactly that shape and hands anything
// else (a hand-edited or foreign file) to encoding/json.

func appendState(b []byte, s *state) []byte {
	b = append(b, `{"v":`...)
	b = strconv.AppendInt(b, int64(s.Version), 10)
	if s.Gen != 0 {
		b = append(b, `,"gen":`...)
		b = strconv.AppendUint(b, s.Gen, 10)
	}
	if s.Seq != 0 {
		b = append(b, `,"seq":`...)
		b = strconv.AppendUint(b, s.Seq, 10)
	}
	if s.BlockedUntil != 0 {
		b = append(b, `,"blocked_until":`...)
		b = strconv.AppendInt(b, s.BlockedUntil, 10)
	}
	if s.Unreadable != 0 {
		b = append(b, `,"unreadable":`...)
		b = strconv.AppendInt(b, s.Unreadable, 10)
	}
	if s.Lost != 0 {
		b = append(b, `,"lost":`...)
		b = strconv.AppendInt(b, s.Lost, 10)
	}
	b = append(b, `,"entries":`...)
	if s.Entries == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, e := range s.Entries {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"id":`...)
			b = strconv.AppendUint(b, e.ID, 10)
			b = append(b, `,"points":`...)
			b = strconv.AppendInt(b, int64(e.Points), 10)
			b = append(b, `,"at":`...)
			b = strconv.AppendInt(b, e.At, 10)
			if e.Pending {
				b = append(b, `,"pending":true`...)
			}
			b = append(b, `,"pid":`...)
			b = strconv.AppendInt(b, int64(e.PID), 10)
			b = appendHost(b, e.Host)
			if e.Lease != 0 {
				b = append(b, `,"lease":`...)
				b = strconv.AppendInt(b, e.Lease, 10)
			}
			b = append(b, `,"expires":`...)
			b = strconv.AppendInt(b, e.Expires, 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if len(s.Queue) > 0 {
		b = append(b, `,"queue":[`...)
		for i, w := range s.Queue {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"id":`...)
			b = strconv.AppendUint(b, w.ID, 10)
			b = append(b, `,"points":`...)
			b = strconv.AppendInt(b, int64(w.Points), 10)
			b = append(b, `,"since":`...)
			b = strconv.AppendInt(b, w.Since, 10)
			b = append(b, `,"wake":`...)
			b = strconv.AppendInt(b, w.Wake, 10)
			b = append(b, `,"pid":`...)
			b = strconv.AppendInt(b, int64(w.PID), 10)
			b = appendHost(b, w.Host)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

func appendHost(b []byte, host string) []byte {
	if host == "" {
		return b
	}
	b = append(b, `,"host":`...)
	if plainString(host) {
		b = append(b, '"')
		b = append(b, host...)
		return append(b, '"')
	}
	q, _ := json.Marshal(host) // rare: escapes exactly as json.Marshal would
	return append(b, q...)
}

// plainString says whether s needs no escaping in JSON (json.Marshal also
// escapes <, > and &).
func plainString(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

func decodeState(data []byte) (state, error) {
	if s, ok := decodeFast(data); ok {
		return s, nil
	}
	var s state
	err := json.Unmarshal(data, &s)
	return s, err
}

// scanner reads the exact shape appendState writes; any surprise clears ok.
type scanner struct {
	b  []byte
	i  int
	ok bool
}

func (p *scanner) opt(lit string) bool {
	if p.ok && len(p.b)-p.i >= len(lit) && string(p.b[p.i:p.i+len(lit)]) == lit {
		p.i += len(lit)
		return true
	}
	return false
}

func (p *scanner) lit(lit string) {
	if !p.opt(lit) {
		p.ok = false
	}
}

func (p *scanner) uint() uint64 {
	start := p.i
	var n uint64
	for p.ok && p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		d := uint64(p.b[p.i] - '0')
		if n > (1<<64-1-d)/10 {
			p.ok = false
		}
		n = n*10 + d
		p.i++
	}
	if p.i == start || p.i-start > 1 && p.b[start] == '0' {
		p.ok = false
	}
	return n
}

func (p *scanner) int() int64 {
	neg := p.opt("-")
	n := p.uint()
	if n > 1<<63-1 && !(neg && n == 1<<63) {
		p.ok = false
	}
	if neg {
		return -int64(n)
	}
	return int64(n)
}

func (p *scanner) str() string {
	p.lit(`"`)
	start := p.i
	for p.ok && p.i < len(p.b) {
		c := p.b[p.i]
		if c == '"' {
			s := string(p.b[start:p.i])
			p.i++
			return s
		}
		if c < 0x20 || c >= 0x80 || c == '\\' {
			break
		}
		p.i++
	}
	p.ok = false
	return ""
}

func decodeFast(data []byte) (s state, ok bool) {
	p := &scanner{b: data, ok: true}
	p.lit(`{"v":`)
	s.Version = int(p.int())
	if p.opt(`,"gen":`) {
		s.Gen = p.uint()
	}
	if p.opt(`,"seq":`) {
		s.Seq = p.uint()
	}
	if p.opt(`,"blocked_until":`) {
		s.BlockedUntil = p.int()
	}
	if p.opt(`,"unreadable":`) {
		s.Unreadable = p.int()
	}
	if p.opt(`,"lost":`) {
		s.Lost = p.int()
	}
	p.lit(`,"entries":`)
	if !p.opt("null") {
		p.lit("[")
		s.Entries = make([]entry, 0, 16)
		for p.ok && !p.opt("]") {
			if len(s.Entries) > 0 {
				p.lit(",")
			}
			var e entry
			p.lit(`{"id":`)
			e.ID = p.uint()
			p.lit(`,"points":`)
			e.Points = int(p.int())
			p.lit(`,"at":`)
			e.At = p.int()
			e.Pending = p.opt(`,"pending":true`)
			p.lit(`,"pid":`)
			e.PID = int(p.int())
			if p.opt(`,"host":`) {
				e.Host = p.str()
			}
			if p.opt(`,"lease":`) {
				e.Lease = p.int()
			}
			p.lit(`,"expires":`)
			e.Expires = p.int()
			p.lit("}")
			s.Entries = append(s.Entries, e)
		}
	}
	if p.opt(`,"queue":[`) {
		for p.ok && !p.opt("]") {
			if len(s.Queue) > 0 {
				p.lit(",")
			}
			var w waiter
			p.lit(`{"id":`)
			w.ID = p.uint()
			p.lit(`,"points":`)
			w.Points = int(p.int())
			p.lit(`,"since":`)
			w.Since = p.int()
			p.lit(`,"wake":`)
			w.Wake = p.int()
			p.lit(`,"pid":`)
			w.PID = int(p.int())
			if p.opt(`,"host":`) {
				w.Host = p.str()
			}
			p.lit("}")
			s.Queue = append(s.Queue, w)
		}
	}
	p.lit("}")
	return s, p.ok && p.i == len(data)
}
