package ratebudget

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// fuzzTiming is a 60 s window's timing, as Open makes it.
var fuzzTiming = timing{
	window: int64(60 * time.Second),
	stale:  int64(60*time.Second + staleExtra),
	block:  int64(maxRetryAfter),
	grace:  int64(queueGrace),
}

// fuzzNow is an instant well inside the range of dates a file may hold.
const fuzzNow = int64(1_800_000_000_000_000_000)

// checkCounted asserts what the budget arithmetic relies on after a load:
// every counted charge is positive, and the points in use are never fewer
// than any one of them (a sum that wrapped would let requests overdraw).
func checkCounted(t *testing.T, s *state, now int64) {
	t.Helper()
	used := s.used(now)
	if used < 0 {
		t.Fatalf("used = %d after normalize, from %+v", used, s.Entries)
	}
	for _, e := range s.Entries {
		if e.Points <= 0 {
			t.Fatalf("entry with %d points kept: %+v", e.Points, e)
		}
		if (e.Pending || e.Expires > now) && e.Points > used {
			t.Fatalf("used = %d, less than one counted entry of %d points", used, e.Points)
		}
	}
	for _, w := range s.Queue {
		if w.Points <= 0 {
			t.Fatalf("waiter with %d points kept: %+v", w.Points, w)
		}
	}
	if s.BlockedUntil > now+fuzzTiming.block {
		t.Fatalf("block until %d kept, past the longest valid block", s.BlockedUntil)
	}
}

// FuzzDecodeState feeds the ledger codec any payload: the fast decoder
// must agree with encoding/json whenever it answers, what either accepts
// must encode back to itself, and a loaded state must never count fewer
// points than it holds.
func FuzzDecodeState(f *testing.F) {
	for _, seed := range []string{
		`{"v":1,"entries":[]}`,
		`{"v":1,"blocked_until":1800000000500000000,"entries":[{"id":1,"points":2,"at":1799999990000000000,"pid":4,"expires":5}],"queue":[{"id":3,"points":10,"since":1,"wake":1800000000100000000,"pid":9,"host":"h"}]}`,
		`{"v":1,"entries":[{"id":7,"points":5,"at":1799999999000000000,"pending":true,"pid":42,"host":"box\u00e9","lease":1800000001000000000,"expires":0}]}`,
		`{ "entries": [ {"points": 2, "id": 5, "at": 7} ], "v": 1 }`,
		`{"v":1,"entries":[{"id":1,"points":9223372036854775807,"at":1800000000000000000,"pid":1,"expires":0},{"id":2,"points":9223372036854775807,"at":1800000000000000000,"pid":1,"expires":0}]}`,
		`{"v":1,"entries":[{"id":1,"points":-5,"at":3,"pid":4,"expires":5}]}`,
		`{"v":01,"entries":[]}`,
		`{"v":1,"entries":"lots"}`,
		`{"v":1,"entries":[{"id":1,"points":2,"at":3,"pid":4,"host":"ab`,
		``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, ok := decodeFast(data)
		var viaJSON state
		jerr := json.Unmarshal(data, &viaJSON)
		if ok {
			if jerr != nil {
				t.Fatalf("the fast decoder accepted what encoding/json refuses (%v): %q", jerr, data)
			}
			if !reflect.DeepEqual(fast, viaJSON) && !(len(fast.Queue) == 0 && len(viaJSON.Queue) == 0 && reflect.DeepEqual(fast.Entries, viaJSON.Entries) && fast.Version == viaJSON.Version && fast.BlockedUntil == viaJSON.BlockedUntil) {
				t.Fatalf("decoders disagree on %q:\n fast %+v\n json %+v", data, fast, viaJSON)
			}
		}
		s, err := decodeState(data)
		if err != nil {
			return
		}
		again, err := decodeState(appendState(nil, &s))
		if err != nil {
			t.Fatalf("a decoded state does not decode after encoding: %v\n%q", err, appendState(nil, &s))
		}
		if len(again.Queue) == 0 && len(s.Queue) == 0 {
			again.Queue, s.Queue = nil, nil
		}
		if len(again.Entries) == 0 && len(s.Entries) == 0 {
			again.Entries, s.Entries = nil, nil
		}
		if !reflect.DeepEqual(again, s) {
			t.Fatalf("encode/decode changed the state:\n %+v\n %+v", s, again)
		}
		s.normalize(fuzzNow, fuzzTiming, func(entry) bool { return false })
		checkCounted(t, &s, fuzzNow)
	})
}

// FuzzLedgerSlot reads any bytes as a slot file: a slot that does not
// verify (or holds no ledger) loads as the whole capacity spent, never as
// free points, and one that verifies survives being written again.
func FuzzLedgerSlot(f *testing.F) {
	good := encodeSlot(nil, 7, []byte(`{"v":1,"entries":[{"id":1,"points":2,"at":1799999990000000000,"pid":4,"expires":5}]}`))
	f.Add(good)
	f.Add(good[:len(good)-3])
	f.Add(append(append([]byte(nil), good...), "trailing junk"...))
	f.Add(encodeSlot(nil, 1, []byte(`{"v":2,"entries":[]}`)))
	f.Add(encodeSlot(nil, 1, []byte(`not json`)))
	f.Add([]byte("orgctl-ledger 2 ff 10 0\n{\"v\":2,\"entr"))
	f.Add([]byte{})
	const capacity = 300
	dir := f.TempDir() // one per worker process: a directory per input would be most of the work
	sl := slots{paths: [2]string{filepath.Join(dir, "k.0"), filepath.Join(dir, "k.1")}}
	f.Fuzz(func(t *testing.T, data []byte) {
		seq, ok := verifySlot(data)
		if ok {
			n := payloadLen(data)
			if n < 0 || headerLen+n > len(data) {
				t.Fatalf("payload length %d outside a %d-byte slot", n, len(data))
			}
			again := encodeSlot(nil, seq, data[headerLen:headerLen+n])
			if s2, ok2 := verifySlot(again); !ok2 || s2 != seq {
				t.Fatalf("a verified slot written again does not verify (%v, seq %d vs %d)", ok2, s2, seq)
			}
		}
		if err := os.WriteFile(sl.paths[0], data, 0o600); err != nil {
			t.Fatal(err)
		}
		now := time.Unix(0, fuzzNow)
		if err := os.Chtimes(sl.paths[0], now, now); err != nil {
			t.Fatal(err)
		}
		s, ld, recovered, err := sl.read(capacity, now)
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		if recovered == (ld.newest >= 0) {
			t.Fatalf("recovered %v with newest slot %d", recovered, ld.newest)
		}
		s.normalize(fuzzNow, fuzzTiming, func(entry) bool { return false })
		checkCounted(t, &s, fuzzNow)
		if recovered && s.used(fuzzNow) < capacity {
			t.Fatalf("an unreadable slot loaded as %d of %d points used", s.used(fuzzNow), capacity)
		}
	})
}
