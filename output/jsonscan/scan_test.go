package jsonscan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

var docs = []string{
	`null`, `true`, `false`, `0`, `-0.5e+10`, `"plain"`, `"esc\"aped\\ \/ \b\f\n\r\t"`, `"\u00e9\ud83d\ude00"`,
	`"\ud800"`, "\"\xff\xfe\"", `"ünïcødé"`, `[]`, `{}`, ` [ 1 , "a" , null ] `, `{"a":{"b":[{"c":1}]},"a":2}`,
	`{"id":"u1","email":"a@b.c","tags":["x","y"],"n":12345678901234567890}`,
	`{`, `[1,]`, `{"a"}`, `{"a":1,}`, `01`, `1.`, `.5`, `-`, `1e`, `tru`, `nul`, `"a`, "\"\x01\"", `"\x"`, `"\u12"`,
	`[1 2]`, `{"a":1 "b":2}`, `{1:2}`, `1 2`, `[]]`, `"a"x`, ``, `   `,
}

// reference decodes as the printers promise to: encoding/json into any,
// numbers kept as text.
func reference(data []byte) (any, error) {
	if !json.Valid(data) {
		return nil, &SyntaxError{msg: "invalid"}
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

func checkDecode(t *testing.T, data []byte) {
	t.Helper()
	want, werr := reference(data)
	got, gerr := Decode(data)
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("%q: encoding/json error %v, Decode error %v", data, werr, gerr)
	}
	if werr == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: Decode = %#v, encoding/json = %#v", data, got, want)
	}
}

func TestDecodeAgreesWithEncodingJSON(t *testing.T) {
	for _, d := range docs {
		checkDecode(t, []byte(d))
	}
	for _, depth := range []int{MaxDepth, MaxDepth + 1} {
		checkDecode(t, []byte(strings.Repeat("[", depth)+strings.Repeat("]", depth)))
	}
}

func TestSkipReturnsTheValueAsSent(t *testing.T) {
	data := []byte(`{"a" : [1, {"b":"\u0041"}] , "data":{"x": 1 },"data" :  "last"}`)
	r := &Reader{Data: data}
	var got []string
	err := r.Object(func(key []byte, plain bool) error {
		v, err := r.Skip()
		got = append(got, string(key)+"="+string(v))
		return err
	})
	if err != nil || r.End() != nil {
		t.Fatalf("Object: %v", err)
	}
	want := []string{`a=[1, {"b":"\u0041"}]`, `data={"x": 1 }`, `data="last"`}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	var scratch []byte
	start, end, err := (&Reader{Data: data}).Member("data", &scratch)
	if err != nil || string(data[start:end]) != `"last"` {
		t.Fatalf("Member(data) = %q, %v; want the last one", data[start:end], err)
	}
	if start, _, _ := (&Reader{Data: data}).Member("missing", &scratch); start != -1 {
		t.Fatalf("Member(missing) start = %d, want -1", start)
	}
}

func TestTextDecodesEscapesOnlyWhenNeeded(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`"abc"`, "abc"}, {`"a\nb"`, "a\nb"}, {`"\u00e9"`, "é"}, {`"\ud83d\ude00"`, "😀"}, {`"\ud800x"`, "\ufffdx"}, {"\"\xff\"", "\ufffd"},
	} {
		r := &Reader{Data: []byte(c.in)}
		raw, plain, err := r.Str()
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		var scratch []byte
		if got := string(Text(raw, plain, &scratch)); got != c.want {
			t.Errorf("%s: Text = %q, want %q", c.in, got, c.want)
		}
		if plain && c.in[1:len(c.in)-1] != c.want {
			t.Errorf("%s: marked plain but needs decoding", c.in)
		}
	}
}

// arriving returns a reader over data whose bytes arrive in pieces of
// size: Data starts empty and More adds one piece at a time.
func arriving(data []byte, size int) *Reader {
	r := &Reader{Data: data[:0]}
	r.More = func() bool {
		if len(r.Data) == len(data) {
			return false
		}
		r.Data = data[:min(len(data), len(r.Data)+size)]
		return true
	}
	return r
}

// checkArriving decodes data as it arrives in pieces of every size and
// wants exactly what the whole text decodes to: the same value, or the same
// error at the same offset.
func checkArriving(t *testing.T, data []byte) {
	t.Helper()
	want, werr := Decode(data)
	for size := 1; size <= max(1, len(data)); size++ {
		r := arriving(data, size)
		var scratch []byte
		got, gerr := r.Value(&scratch)
		if gerr == nil {
			gerr = r.End()
		}
		if fmt.Sprint(gerr) != fmt.Sprint(werr) || werr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q in pieces of %d: %#v, %v; whole: %#v, %v", data, size, got, gerr, want, werr)
		}
	}
}

// checkChecked wants Skip over valid text to give the same values, top
// level and inside containers, whether or not the reader knows the text was
// checked, and when the checked text is still arriving.
func checkChecked(t *testing.T, data []byte) {
	t.Helper()
	if !json.Valid(data) {
		return
	}
	want := plainWalk(&Reader{Data: data})
	if got := plainWalk(&Reader{Data: data, Checked: true}); !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: checked Skip %q, Skip %q", data, got, want)
	}
	for _, size := range []int{1, 3} {
		r := arriving(data, size)
		r.Checked = true
		if got := plainWalk(r); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q in pieces of %d: checked Skip %q, Skip %q", data, size, got, want)
		}
	}
}

func TestCheckedSkipFindsTheSameValues(t *testing.T) {
	for _, d := range docs {
		checkChecked(t, []byte(d))
	}
	checkChecked(t, []byte(` {"a\\":"x\\\"y\\","b":[1,-2.5e3,{"c":"]}\"{["},[]],"d":{},"e":true} `))
}

func TestArrivingTextReadsAsTheWhole(t *testing.T) {
	for _, d := range docs {
		checkArriving(t, []byte(d))
	}
	checkArriving(t, []byte(`{"n":[12345,-0.25e+7,1E9],"s":"a\u00e9\n\ud83d\ude00b","t":[true,false,null]} `))
}

func FuzzDecode(f *testing.F) {
	for _, d := range docs {
		f.Add([]byte(d))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		checkDecode(t, data)
		checkChecked(t, data)
		checkShaped(t, data, string(data))
		if len(data) <= 256 {
			checkArriving(t, data)
		}
	})
}

// walk reads a text's values, top level and inside containers, with Skip,
// and its objects with object, which is told where in the text the object
// is (its path). It returns what it met: keys, values, errors.
func walk(r *Reader, object func(path string, member func(key []byte, plain bool) error) error) []string {
	var out []string
	var visit func(path string) error
	visit = func(path string) error {
		start := r.Pos
		switch r.Peek() {
		case '{':
			n := 0
			err := object(path, func(k []byte, plain bool) error {
				out = append(out, fmt.Sprintf("key %q %v", k, plain))
				n++
				return visit(fmt.Sprintf("%s/%d", path, n-1))
			})
			if err != nil {
				return err
			}
		case '[':
			if err := r.Array(func() error { return visit(path + "/[]") }); err != nil {
				return err
			}
		}
		r.Pos = start
		v, err := r.Skip()
		out = append(out, string(v))
		return err
	}
	if err := visit(""); err != nil {
		out = append(out, "error "+err.Error())
	}
	if err := r.End(); err != nil {
		out = append(out, "end "+err.Error())
	}
	return out
}

// plainWalk walks a text reading objects with Object.
func plainWalk(r *Reader) []string {
	return walk(r, func(_ string, member func([]byte, bool) error) error { return r.Object(member) })
}

// shapedWalk walks a text reading objects with ObjectShaped and one Shape
// for each path (kept in shapes across calls). It fails the test when a
// key is called known but is not the raw key last read at its place (kept
// in seen), or the other way round.
func shapedWalk(t *testing.T, r *Reader, shapes map[string]*Shape, seen map[string][]string) []string {
	t.Helper()
	return walk(r, func(path string, member func([]byte, bool) error) error {
		s := shapes[path]
		if s == nil {
			s = new(Shape)
			shapes[path] = s
		}
		n := 0
		return r.ObjectShaped(s, func(k int, known bool, key []byte, plain bool) error {
			want := n
			if n >= MaxShapeKeys {
				want = -1
			}
			n++
			if k != want {
				t.Fatalf("%s: key %q told place %d, is at %d", path, key, k, want)
			}
			wasKnown := k >= 0 && k < len(seen[path]) && seen[path][k] == string(key)
			if known != wasKnown {
				t.Fatalf("%s: key %q at %d: known %v, last read there %q", path, key, k, known, seen[path])
			}
			if k >= 0 && k == len(seen[path]) {
				seen[path] = append(seen[path], "")
			}
			if k >= 0 {
				seen[path][k] = string(key)
			}
			return member(key, plain)
		})
	})
}

// checkShaped reads data with shapes first learned from each of before,
// whole and as it arrives in pieces, and wants what Object reads.
func checkShaped(t *testing.T, data []byte, before ...string) {
	t.Helper()
	want := plainWalk(&Reader{Data: data})
	for _, size := range []int{len(data), 1, 3} {
		shapes, seen := map[string]*Shape{}, map[string][]string{}
		for _, b := range before {
			shapedWalk(t, &Reader{Data: []byte(b)}, shapes, seen)
		}
		r := &Reader{Data: data}
		if size < len(data) {
			r = arriving(data, size)
		}
		if got := shapedWalk(t, r, shapes, seen); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q after %q, in pieces of %d: read %q, Object reads %q", data, before, size, got, want)
		}
	}
}

func TestShapedObjectsReadAsObject(t *testing.T) {
	records := []string{
		`{"a":1,"b":{"c":2}}`,
		`{"a":3,"b":{"c":4}}`,
		`{"a":5,"x":6,"b":{"c":7}}`, // a key in the middle
		`{"a" :8,"b": {"c":9}}`,     // whitespace around the colon
		` { "a":10 , "b":{"c" : 11} } `,
		`{"\u0061":12,"b\"":{"c":13}}`, // the same key escaped, a quote
		`{"b":{"c":14},"a":15}`,        // the order changed
		`{"a":16}`, `{}`, `{"a":17,"b":18,"c":19}`,
		`{"a":1,"b":}`, `{"a":1,"b"`, `{"a":1 "b":2}`, `{"a":1,"b":{"c":2}`, `{"a":1,"b":{"c":2}}}`, `{"a"`, `{"a":`,
		`[{"a":1,"b":[{"c":2},{"c":3,"d":4}]},{"a":5,"b":[{"d":6},{"c":7}]}]`,
	}
	for _, d := range records {
		checkShaped(t, []byte(d))
		for _, b := range records {
			checkShaped(t, []byte(d), b)
			checkShaped(t, []byte(d), b, d)
		}
	}
	for _, d := range docs {
		checkShaped(t, []byte(d), d)
	}
	// An object with more keys than a Shape keeps, read twice.
	var sb strings.Builder
	sb.WriteByte('{')
	for i := range MaxShapeKeys + 6 {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `"k%d":%d`, i, i)
	}
	sb.WriteByte('}')
	wide := sb.String()
	checkShaped(t, []byte(wide), wide)
}
