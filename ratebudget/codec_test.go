package ratebudget

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

func randomState(rng *rand.Rand) state {
	ints := []int64{0, 1, -1, 9, 10, math.MaxInt64, math.MinInt64, 1_795_000_000_000_000_000}
	n := func() int64 {
		if rng.IntN(3) == 0 {
			return ints[rng.IntN(len(ints))]
		}
		return rng.Int64() - rng.Int64()
	}
	plain := []string{"", "ci-runner-7", "box.example.com"}
	weird := []string{`we"ird\host`, "<amp&>", "héte", "tab\there", "\u2028"}
	host := func() string {
		if rng.IntN(20) == 0 {
			return weird[rng.IntN(len(weird))]
		}
		return plain[rng.IntN(len(plain))]
	}
	s := state{Version: int(n()), BlockedUntil: n(), Unreadable: n() * int64(rng.IntN(2)), Lost: n() * int64(rng.IntN(2)),
		Gen: rng.Uint64() * uint64(rng.IntN(2)), Seq: rng.Uint64() * uint64(rng.IntN(2))}
	if rng.IntN(4) > 0 {
		s.Entries = []entry{}
	}
	for range rng.IntN(5) {
		s.Entries = append(s.Entries, entry{ID: rng.Uint64(), Points: int(n()), At: n(), Pending: rng.IntN(2) == 0,
			PID: int(n()), Host: host(), Lease: n() * int64(rng.IntN(2)), Expires: n()})
	}
	for range rng.IntN(3) {
		s.Queue = append(s.Queue, waiter{ID: rng.Uint64(), Points: int(n()), Since: n(), Wake: n(),
			PID: int(n()), Host: host()})
	}
	return s
}

// The hand codec must agree with encoding/json byte for byte and value for
// value, so files stay readable by either and hand edits still load.
func TestCodecMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	fast := 0
	for i := range 2000 {
		s := randomState(rng)
		want, err := json.Marshal(&s)
		if err != nil {
			t.Fatal(err)
		}
		got := appendState(nil, &s)
		if string(got) != string(want) {
			t.Fatalf("case %d:\n got %s\nwant %s", i, got, want)
		}
		var viaJSON state
		if err := json.Unmarshal(want, &viaJSON); err != nil {
			t.Fatal(err)
		}
		dec, err := decodeState(got)
		if err != nil || !reflect.DeepEqual(dec, viaJSON) && !(len(dec.Queue) == 0 && len(viaJSON.Queue) == 0 && reflect.DeepEqual(dec.Entries, viaJSON.Entries) &&
			dec.Gen == viaJSON.Gen && dec.Seq == viaJSON.Seq && dec.Unreadable == viaJSON.Unreadable && dec.Lost == viaJSON.Lost) {
			t.Fatalf("case %d: decoded %+v (%v), encoding/json %+v", i, dec, err, viaJSON)
		}
		if _, ok := decodeFast(got); ok {
			fast++
		}
	}
	if fast < 1000 {
		t.Fatalf("fast path took only %d of 2000 states", fast)
	}
}

func TestDecodeFallsBackAndRejects(t *testing.T) {
	for name, c := range map[string]struct {
		in   string
		want state
		ok   bool
	}{
		"spaces and order": {in: `{ "entries": [ {"points": 2, "id": 5, "at": 7} ], "v": 1 }`,
			want: state{Version: 1, Entries: []entry{{ID: 5, Points: 2, At: 7}}}, ok: true},
		"pending false":   {in: `{"v":1,"entries":[{"id":1,"points":2,"at":3,"pending":false,"pid":4,"expires":5}]}`, want: state{Version: 1, Entries: []entry{{ID: 1, Points: 2, At: 3, PID: 4, Expires: 5}}}, ok: true},
		"escaped host":    {in: `{"v":1,"entries":[{"id":1,"points":2,"at":3,"pid":4,"host":"a\u0062","expires":5}]}`, want: state{Version: 1, Entries: []entry{{ID: 1, Points: 2, At: 3, PID: 4, Host: "ab", Expires: 5}}}, ok: true},
		"overflow":        {in: `{"v":1,"entries":[{"id":1,"points":2,"at":99999999999999999999,"pid":4,"expires":5}]}`},
		"leading zero":    {in: `{"v":01,"entries":[]}`},
		"trailing comma":  {in: `{"v":1,"entries":[{"id":1,"points":2,"at":3,"pid":4,"expires":5},]}`},
		"trailing bytes":  {in: `{"v":1,"entries":[]}x`},
		"wrong type":      {in: `{"v":1,"entries":"lots"}`},
		"unclosed string": {in: `{"v":1,"entries":[{"id":1,"points":2,"at":3,"pid":4,"host":"ab`},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := decodeState([]byte(c.in))
			if (err == nil) != c.ok {
				t.Fatalf("err = %v, want ok %v", err, c.ok)
			}
			if c.ok && !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
}
