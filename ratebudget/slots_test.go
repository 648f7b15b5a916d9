package ratebudget

import (
	"bytes"
	"os"
	"testing"
	"time"
)

// twoSlotLedger leaves slot 0 holding the newest state (sequence 3: one
// charge and one pending reservation, 4 points) and slot 1 the one before
// (sequence 2: the charge alone, 2 points).
func twoSlotLedger(t *testing.T) (*Ledger, *Ticket) {
	t.Helper()
	l := openTest(t, t.TempDir(), smallConfig(), newFakeClock())
	acquire(t, l, "/apps").Done(true)
	tk := acquire(t, l, "/apps")
	_, ld, _, err := fileSlots(l).read(10, t0)
	if err != nil || ld.newest != 0 || ld.seq != 3 {
		t.Fatalf("setup: newest slot %d seq %d (%v), want slot 0 seq 3", ld.newest, ld.seq, err)
	}
	if st := status(t, l); st.Used != 4 {
		t.Fatalf("setup: used %d, want 4", st.Used)
	}
	return l, tk
}

// A write torn anywhere (payload cut short, bytes changed, header cut or
// altered) damages only the slot being written; readers fall back to the
// other slot, the last state fully written, and the next write repairs the
// damaged slot without touching the good one.
func TestTornWriteFallsBackToOtherSlot(t *testing.T) {
	tear := map[string]func(b []byte) []byte{
		"payload truncated": func(b []byte) []byte { return b[:headerLen+(len(b)-headerLen)/2] },
		"last byte missing": func(b []byte) []byte { return b[:len(b)-1] },
		"header truncated":  func(b []byte) []byte { return b[:headerLen/2] },
		"empty":             func(b []byte) []byte { return nil },
		"payload byte flipped": func(b []byte) []byte {
			i := bytes.Index(b, []byte(`"points":2`)) + len(`"points":`)
			b[i] = '1' // still valid JSON, now 1 point: only the checksum can tell
			return b
		},
		"sequence raised": func(b []byte) []byte { b[seqAt] = 'f'; return b },
		"length changed":  func(b []byte) []byte { b[lenAt+7]++; return b },
		"old bytes after a shorter write": func(b []byte) []byte {
			// new header and half the payload over a longer old slot
			old := encodeSlot(nil, 1, bytes.Repeat([]byte("x"), len(b)))
			return append(b[:len(b)/2:len(b)/2], old[len(b)/2:]...)
		},
	}
	for name, f := range tear {
		t.Run(name, func(t *testing.T) {
			l, tk := twoSlotLedger(t)
			good, err := os.ReadFile(l.Files()[1])
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(l.Files()[0])
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(l.Files()[0], f(b), 0o600); err != nil {
				t.Fatal(err)
			}
			if st := status(t, l); st.Used != 2 {
				t.Fatalf("used %d after slot 0 was torn, want 2 (slot 1's state)", st.Used)
			}
			tk.Done(true) // its reservation is gone with the torn slot: charged afresh
			if after, _ := os.ReadFile(l.Files()[1]); !bytes.Equal(after, good) {
				t.Fatal("the write after the tear touched the good slot")
			}
			s := readLedgerFile(t, l)
			if len(s.Entries) != 2 || s.Entries[0].Pending || s.Entries[1].Pending || s.Entries[1].ID != tk.id {
				t.Fatalf("entries after repair = %+v", s.Entries)
			}
			if _, ld, _, _ := fileSlots(l).read(10, t0); ld.newest != 0 || ld.seq != 3 {
				t.Fatalf("repaired slot %d seq %d, want slot 0 seq 3", ld.newest, ld.seq)
			}
		})
	}
}

// Every write goes to the slot not holding the newest state, so the
// newest state is never overwritten in place.
func TestWritesAlternateSlotsAndKeepNewest(t *testing.T) {
	l := openTest(t, t.TempDir(), smallConfig(), newFakeClock())
	var prev []byte
	for i := range 6 {
		acquire(t, l, "/apps").Done(i%2 == 0)
		_, ld, _, err := fileSlots(l).read(10, t0)
		if err != nil || ld.seq != uint64(2*i+2) || ld.newest != 1 {
			t.Fatalf("round %d: newest slot %d seq %d (%v)", i, ld.newest, ld.seq, err)
		}
		other, _ := os.ReadFile(l.Files()[0])
		if seq, ok := verifySlot(other); !ok || seq != ld.seq-1 {
			t.Fatalf("round %d: the other slot holds seq %d (valid %v), want the previous state", i, seq, ok)
		}
		if prev != nil && bytes.Equal(other, prev) {
			t.Fatalf("round %d: slot 0 not rewritten", i)
		}
		prev = other
	}
}

// A slot grown and then shrunk is cut to its new length, so the files stay
// readable; bytes left past the payload by a write that died before its
// truncate are ignored.
func TestSlotShrinksAndToleratesTrailingBytes(t *testing.T) {
	clk := newFakeClock()
	l := openTest(t, t.TempDir(), smallConfig(), clk)
	for range 4 {
		acquire(t, l, "/apps").Done(true)
	}
	clk.Advance(2 * time.Minute) // everything expires: the next states are small
	acquire(t, l, "/apps").Done(true)
	for _, p := range l.Files() {
		b, _ := os.ReadFile(p)
		if _, ok := verifySlot(b); !ok || len(b) != headerLen+payloadLen(b) {
			t.Fatalf("%s: %d bytes, payload %d: not cut to length", p, len(b), payloadLen(b))
		}
	}
	p := l.Files()[1]
	b, _ := os.ReadFile(p)
	if err := os.WriteFile(p, append(b, `,"junk":[1,2,3]}`...), 0o600); err != nil {
		t.Fatal(err)
	}
	s, ld, _, err := fileSlots(l).read(10, clk.Now())
	if err != nil || ld.newest != 1 || ld.seq != 10 || len(s.Entries) != 1 || s.Entries[0].Pending {
		t.Fatalf("with trailing bytes: slot %d seq %d entries %+v (%v), want slot 1 seq 10 with the charge", ld.newest, ld.seq, s.Entries, err)
	}
}

// A waiter polling on in-flight requests writes its queue place once and
// then only reads, renewing its proof of life every half grace: polls cost
// a read, not a write, for every process waiting.
func TestPollingWaiterWritesOnlyToStayAlive(t *testing.T) {
	clk := newFakeClock()
	dir := t.TempDir()
	l := openTest(t, dir, smallConfig(), clk)
	other := openTest(t, dir, smallConfig(), clk)
	var inflight []*Ticket
	for range 5 {
		inflight = append(inflight, acquire(t, other, "/apps"))
	}
	seq := func() uint64 {
		_, ld, _, err := fileSlots(l).read(10, clk.Now())
		if err != nil {
			t.Fatal(err)
		}
		return ld.seq
	}
	start := seq()
	var writes []time.Duration // when the ledger was written, since t0
	last := start
	clk.onSleep = func(time.Duration) {
		if s := seq(); s != last {
			writes = append(writes, clk.Now().Sub(t0))
			last = s
		}
		if clk.Now().Sub(t0) >= 20*time.Second {
			inflight[0].Done(false)
			inflight = inflight[1:]
		}
	}
	acquire(t, l, "/apps")
	polls := len(clk.Sleeps())
	// Joining the queue, then one renewal per 5 s (half the 10 s grace) over 20 s.
	if polls < 90 || len(writes) > 6 {
		t.Fatalf("%d polls wrote the ledger %d times (at %v), want about one write per 5 s", polls, len(writes), writes)
	}
}

// Charges expiring while a waiter polls are dropped by every reader, so they
// cost that waiter no write either.
func TestExpiringChargesCostPollsNoWrite(t *testing.T) {
	clk := newFakeClock()
	dir := t.TempDir()
	cfg := smallConfig()
	cfg.Window = 6 * time.Second
	l := openTest(t, dir, cfg, clk)
	other := openTest(t, dir, cfg, clk)
	for range 4 { // 8 points charged at t0, +0.5s, +1s, +1.5s: they expire at +6s .. +7.5s
		acquire(t, other, "/apps").Done(true)
		clk.Advance(500 * time.Millisecond)
	}
	inflight := acquire(t, other, "/apps") // 2 points pending until +7.6s
	seq := func() uint64 {
		_, ld, _, err := fileSlots(l).read(10, clk.Now())
		if err != nil {
			t.Fatal(err)
		}
		return ld.seq
	}
	var writes []time.Duration
	last := seq()
	clk.onSleep = func(time.Duration) {
		if s := seq(); s != last {
			writes = append(writes, clk.Now().Sub(t0))
			last = s
		}
		if inflight != nil && clk.Now().Sub(t0) >= 7600*time.Millisecond {
			inflight.Done(false)
			inflight = nil
		}
	}
	acquire(t, l, "/permissions") // 10 points: all of it
	// Joining the queue and one renewal of its place; the four expiries write nothing.
	if len(writes) > 2 {
		t.Fatalf("%d polls wrote the ledger %d times (at %v), want at most 2", len(clk.Sleeps()), len(writes), writes)
	}
}

// encodeSlot appends a slot holding payload as sequence seq to buf.
func encodeSlot(buf []byte, seq uint64, payload []byte) []byte {
	start := len(buf)
	buf = append(buf, make([]byte, headerLen)...)
	buf = append(buf, payload...)
	frame(buf[start:], seq)
	return buf
}
