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
	walk := func(r *Reader) []string {
		var out []string
		var visit func() error
		visit = func() error {
			start := r.Pos
			switch r.Peek() {
			case '{':
				if err := r.Object(func(k []byte, _ bool) error { out = append(out, "key "+string(k)); return visit() }); err != nil {
					return err
				}
			case '[':
				if err := r.Array(visit); err != nil {
					return err
				}
			}
			r.Pos = start
			v, err := r.Skip()
			out = append(out, string(v))
			return err
		}
		if err := visit(); err != nil {
			out = append(out, "error "+err.Error())
		}
		if err := r.End(); err != nil {
			out = append(out, "end "+err.Error())
		}
		return out
	}
	want := walk(&Reader{Data: data})
	if got := walk(&Reader{Data: data, Checked: true}); !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: checked Skip %q, Skip %q", data, got, want)
	}
	for _, size := range []int{1, 3} {
		r := arriving(data, size)
		r.Checked = true
		if got := walk(r); !reflect.DeepEqual(got, want) {
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
		if len(data) <= 256 {
			checkArriving(t, data)
		}
	})
}
