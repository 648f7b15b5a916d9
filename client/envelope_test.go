package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/iotest"
	"unsafe"

	"github.com/orgctl/orgctl/output/jsonscan"
)

// referenceDecodeEnvelope is how answers were decoded before decodeEnvelope
// learned to leave data in place: json.Valid, then json.Unmarshal into
// envelope, copying data.
func referenceDecodeEnvelope(b []byte) (*Response, error) {
	out := &Response{TotalCount: -1}
	trimmed := bytes.TrimSpace(b)
	if len(trimmed) == 0 {
		return out, nil
	}
	if !json.Valid(trimmed) {
		return nil, errors.New("not JSON")
	}
	var env envelope
	if trimmed[0] != '{' || json.Unmarshal(trimmed, &env) != nil || (env.Success == nil && env.Data == nil) {
		out.Data = trimmed
		return out, nil
	}
	out.Data = env.Data
	if bytes.Equal(bytes.TrimSpace(out.Data), []byte("null")) {
		out.Data = nil
	}
	if env.TotalCount != nil {
		if n, err := env.TotalCount.Int64(); err == nil {
			out.TotalCount = n
		} else if f, err := env.TotalCount.Float64(); err == nil {
			out.TotalCount = int64(f)
		}
	}
	if env.NextToken != nil {
		out.NextToken = *env.NextToken
	}
	if env.HasMore != nil {
		out.HasMore = *env.HasMore
	}
	return out, nil
}

var envelopeCases = []string{
	``, `  `, `null`, `[]`, `[1,2]`, `"x"`, `5`, `true`, `{}`, `{"a":1}`, ` {"success":true} `,
	`{"success":true,"data":[{"id":"u1"}],"total_count":2,"next_token":"t","has_more":true}`,
	`{"success":true,"data":null}`, `{"data":null}`, `{"data": [ 1 , 2 ] }`, `{"DATA":{"x":1}}`, `{"Data":1,"data":2}`,
	`{"data":1,"Data":2}`, `{"success":"yes","data":1}`, `{"success":true,"success":null}`, `{"ſuccess":true}`,
	`{"da\u0074a":[1]}`, `{"total_count":"5","data":1}`, `{"total_count":"x","data":1}`, `{"total_count":1.5e3,"data":1}`,
	`{"total_count":1e400,"data":1}`, `{"total_count":true,"data":1}`, `{"next_token":5,"data":1}`, `{"next_token":null,"data":1}`,
	`{"has_more":"true","data":1}`, `{"message":5,"data":1}`, `{"message":"m","success":false}`, `{"data":1,"total_count":3,"total_count":null}`,
	`{"data":1}x`, `{"data":1`, `{"data":}`, `{"data":[1,]}`, `{"success": true, "data":[1,2] }`, `{"data":[1,2], "x": [ 3 ]}`,
	`{"data":[ 1],"data":[2]}`, `{"data":[1],"data":[ 2]}`, `[1, 2]`, `{"data":"\x"}`, `<html></html>`, `{"a":"\ud800"}`,
	"{\"data\":\"\xff\"}", `{"data":1} {"data":2}`, "\t{\"data\":{}}\n",
	"\u00a0{\"data\":1}", "{\"data\":1}\u2028", "\v[1]\f", `{"data":[1.5e3,-0,true,false,null,"\u00e9\n"]}`, `{"data":tru}`, `{"data":-}`, `{"data":1.}`,
}

func checkEnvelope(t *testing.T, body []byte) {
	t.Helper()
	got, err := decodeEnvelope(body)
	want, werr := referenceDecodeEnvelope(body)
	if (err == nil) != (werr == nil) {
		t.Fatalf("decodeEnvelope(%q) error %v, reference error %v", body, err, werr)
	}
	if err != nil {
		return
	}
	if !bytes.Equal(got.Data, want.Data) || (got.Data == nil) != (want.Data == nil) ||
		got.TotalCount != want.TotalCount || got.NextToken != want.NextToken || got.HasMore != want.HasMore {
		t.Fatalf("decodeEnvelope(%q) = %+v (data %q), reference %+v (data %q)", body, got, got.Data, want, want.Data)
	}
	// Data counts as compact exactly when compacting would not change it.
	var c bytes.Buffer
	isCompact := len(got.Data) > 0 && json.Compact(&c, got.Data) == nil && bytes.Equal(c.Bytes(), got.Data)
	if data, ok := got.CompactData(); ok != isCompact || !bytes.Equal(data, got.Data) {
		t.Fatalf("decodeEnvelope(%q).CompactData() = %q, %v; compacting the data gives %q", body, data, ok, c.Bytes())
	}
}

// checkArriving reads body in pieces of each size while decoding it, and
// wants what decodeEnvelope makes of the whole: the same envelope, or none
// when that fails. It does so without a renderer, with one that fails
// part-way through each value (the value is then checked as usual), and
// with one that succeeds, whose result Rendered must give exactly when
// Data is the value it rendered.
func checkArriving(t *testing.T, body []byte) {
	t.Helper()
	want, werr := decodeEnvelope(body)
	renderers := map[string]func(*jsonscan.Reader) any{
		"none": nil,
		"failing": func(r *jsonscan.Reader) any {
			if r.Peek() == '[' || r.Peek() == '{' {
				r.Enter()
				r.Pos++
				r.Peek()
			}
			return nil
		},
		"reading": func(r *jsonscan.Reader) any {
			b, err := r.Skip()
			if err != nil {
				return nil
			}
			return "rendered " + string(b)
		},
	}
	sizes := []int{1, 2, 3, 7, 64, len(body) + 1}
	if len(body) > 4096 {
		sizes = []int{64, 4096, len(body) + 1}
	}
	for name, render := range renderers {
		for i, size := range append(sizes, sizes...) {
			// First with the answer's size known, then not (chunked).
			known := int64(len(body))
			if i >= len(sizes) {
				known = -1
			}
			b, got, err := readEnvelope(iotest.HalfReader(&pieces{body, size}), known, render)
			if err != nil || !bytes.Equal(b, body) {
				t.Fatalf("%.80q in pieces of %d (size %d, renderer %s): read %.80q, %v", body, size, known, name, b, err)
			}
			if known < 0 && len(body) < checkWhileArriving {
				if got != nil {
					t.Fatalf("%q of unknown size: decoded while arriving, though small", body)
				}
				continue
			}
			if (got == nil) != (werr != nil) {
				t.Fatalf("%q in pieces of %d (renderer %s): envelope %+v; decoding the whole: %v", body, size, name, got, werr)
			}
			if got == nil {
				continue
			}
			compareArrived(t, body, size, name, got, want)
		}
	}
}

// compareArrived fails t unless the envelope decoded while body arrived
// in pieces of size is the one decoded from the whole, rendered only by
// the renderer that reads.
func compareArrived(t *testing.T, body []byte, size int, name string, got, want *Response) {
	t.Helper()
	gc, gok := got.CompactData()
	wc, wok := want.CompactData()
	if name == "reading" && !gok {
		// Rendered data is taken to hold whitespace: never compact.
		wok, wc = false, want.Data
	}
	if !bytes.Equal(got.Data, want.Data) || (got.Data == nil) != (want.Data == nil) || gok != wok || !bytes.Equal(gc, wc) ||
		got.TotalCount != want.TotalCount || got.NextToken != want.NextToken || got.HasMore != want.HasMore {
		t.Fatalf("%q in pieces of %d (renderer %s): %+v (data %q); whole: %+v (data %q)", body, size, name, got, got.Data, want, want.Data)
	}
	x, ok := got.Rendered()
	if name != "reading" && ok {
		t.Fatalf("%q (renderer %s): rendered %v", body, name, x)
	}
	if ok && x != "rendered "+string(got.Data) {
		t.Fatalf("%q in pieces of %d: rendered %q for data %q", body, size, x, got.Data)
	}
	// Data shorter than the body is a data member's value.
	if name == "reading" && !ok && len(got.Data) > 0 && len(got.Data) < len(bytes.TrimSpace(body)) {
		t.Fatalf("%q in pieces of %d: data %q not rendered", body, size, got.Data)
	}
}

// pieces reads b at most size bytes at a time.
type pieces struct {
	b    []byte
	size int
}

func (p *pieces) Read(out []byte) (int, error) {
	if len(p.b) == 0 {
		return 0, io.EOF
	}
	n := copy(out[:min(len(out), p.size)], p.b)
	p.b = p.b[n:]
	return n, nil
}

func TestEnvelopeDecodedWhileArriving(t *testing.T) {
	for _, c := range envelopeCases {
		checkArriving(t, []byte(c))
	}
	// Answers large enough to be decoded while they arrive whatever their
	// size is known to be, in a buffer that grows (quadrupling from 256 KiB).
	defer func(g int) { firstGrowth = g }(firstGrowth)
	firstGrowth = 0
	var list strings.Builder
	for i := 0; list.Len() < 1200<<10; i++ {
		fmt.Fprintf(&list, `{"id":%d,"name":"user %d"},`, i, i)
	}
	elems := strings.TrimSuffix(list.String(), ",")
	for _, body := range []string{
		`{"success":true,"data":[` + elems + `],"total_count":3,"has_more":true}`,
		`{"success":true, "data": [` + elems + `] }`,
		`{"data":[` + elems + `],"data":[1]}`,
		`{"has_more":"no","data":[` + elems + `]}`,
		`[` + elems + `]`,
		`{"success":true,"data":[` + elems + `,]}`,
		`{"success":true,"data":[` + elems + `]`,
	} {
		checkArriving(t, []byte(body))
	}
}

func TestAnswerCutWhileDecodingIsAReadError(t *testing.T) {
	body := `{"success":true,"data":[1,2,3]}`
	cut := io.MultiReader(strings.NewReader(body[:20]), iotest.ErrReader(io.ErrUnexpectedEOF))
	if _, env, err := readEnvelope(cut, int64(len(body)), nil); !errors.Is(err, io.ErrUnexpectedEOF) || env != nil {
		t.Fatalf("a cut answer: envelope %+v, error %v; want the read error", env, err)
	}
	// A complete value followed by a cut is still cut.
	cut = io.MultiReader(strings.NewReader(body), iotest.ErrReader(io.ErrUnexpectedEOF))
	if _, env, err := readEnvelope(cut, int64(len(body))+5, nil); !errors.Is(err, io.ErrUnexpectedEOF) || env != nil {
		t.Fatalf("an answer cut after its value: envelope %+v, error %v; want the read error", env, err)
	}
	// More than Content-Length said (net/http does not let that happen) is
	// refused, not cut short.
	long := `{"data":"` + strings.Repeat("x", 1000) + `"}`
	if _, _, err := readEnvelope(strings.NewReader(long), int64(len(long))-2, nil); err == nil {
		t.Fatal("an answer longer than its Content-Length was taken")
	}
}

func TestDecodeEnvelopeMatchesUnmarshal(t *testing.T) {
	for _, c := range envelopeCases {
		checkEnvelope(t, []byte(c))
	}
}

func FuzzDecodeEnvelope(f *testing.F) {
	for _, c := range envelopeCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		checkEnvelope(t, body)
		checkArriving(t, body)
	})
}

func TestDecodeEnvelopeLeavesDataInPlace(t *testing.T) {
	body := []byte(`{"success":true,"data":[{"id":"u1"},{"id":"u2"}],"total_count":2}`)
	resp, err := decodeEnvelope(body)
	if err != nil {
		t.Fatal(err)
	}
	start := uintptr(unsafe.Pointer(&body[0]))
	at := uintptr(unsafe.Pointer(&resp.Data[0]))
	if at < start || at+uintptr(len(resp.Data)) > start+uintptr(len(body)) {
		t.Errorf("Data was copied out of the answer")
	}
	if string(resp.Data) != `[{"id":"u1"},{"id":"u2"}]` {
		t.Errorf("Data = %s", resp.Data)
	}
}

func TestCompactDataOnlyForTheCheckedAnswer(t *testing.T) {
	resp, err := decodeEnvelope([]byte(`{"success":true,"data":[1,2]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := resp.CompactData(); !ok {
		t.Fatal("a compact answer's data is not reported compact")
	}
	resp.Data = json.RawMessage(`[1, 2]`) // joined pages, say
	if _, ok := resp.CompactData(); ok {
		t.Error("replaced data is still reported compact")
	}
	resp.Data = resp.compact[:3]
	if _, ok := resp.CompactData(); ok {
		t.Error("a part of the checked data is reported compact")
	}
}

func TestReadAnswerSizesItsBufferOnce(t *testing.T) {
	body := strings.Repeat("x", 100000)
	b, err := readAnswer(strings.NewReader(body), int64(len(body)))
	if err != nil || string(b) != body {
		t.Fatalf("readAnswer = %d bytes, %v", len(b), err)
	}
	if cap(b) != len(body)+1 {
		t.Errorf("cap = %d for a %d-byte answer: the buffer grew instead of being sized from Content-Length", cap(b), len(body))
	}
	// Without a length, and with a length that lies, every byte still arrives.
	for _, size := range []int64{-1, 10, 1 << 40} {
		b, err := readAnswer(io.MultiReader(strings.NewReader(body[:500]), strings.NewReader(body[500:])), size)
		if err != nil || string(b) != body {
			t.Errorf("size %d: readAnswer = %d bytes, %v", size, len(b), err)
		}
	}
}

type answerTransport string

func (a answerTransport) RoundTrip(*http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader(string(a))), ContentLength: int64(len(a))}, nil
}

func TestBufferedAnswerIsHandedOverNotCopied(t *testing.T) {
	req, _ := http.NewRequest(http.MethodGet, "http://127.0.0.1/api/v2/users", nil)
	resp, err := (&bufferTransport{next: answerTransport(`{"data":[1]}`)}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := answerBytes(resp.Body)
	b, _ := answerBytes(resp.Body)
	if string(a) != `{"data":[1]}` || unsafe.SliceData(a) != unsafe.SliceData(b) {
		t.Errorf("answerBytes copied the buffered answer (%q)", a)
	}
}

func BenchmarkDecodeEnvelope(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"success":true,"data":[`)
	for i := 1; i <= 20000; i++ {
		if i > 1 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"active":true,"created_at":"2024-01-02T03:04:05.000Z","email":"user%06d@example.com","first_name":"First%d",`+
			`"id":"user_%032x","is_admin":false,"last_active":null,"last_name":"Last %d","legacy_id":%d,"metadata":{"team":"t"},`+
			`"two_factor_auth_enabled":false,"user_type":"default"}`, i, i, i, i, i)
	}
	sb.WriteString(`],"total_count":20000,"next_token":null,"has_more":false}`)
	body := []byte(sb.String())
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, err := decodeEnvelope(body); err != nil {
			b.Fatal(err)
		}
	}
}

// An answer's buffer grows as append grows it while small; from
// checkWhileArriving on it jumps to firstGrowth, then quadruples, keeping
// what it holds. readAnswer and readEnvelope both grow so.
func TestBuffersGrowByQuadruplingOnceLarge(t *testing.T) {
	defer func(g int) { firstGrowth = g }(firstGrowth)
	firstGrowth = 1 << 20
	for _, c := range []struct{ cap, want int }{
		{512, -1},                     // append's growth, whatever it is
		{checkWhileArriving, 1 << 20}, // the first large growth
		{1 << 20, 4 << 20},            // then four times
	} {
		b := make([]byte, c.cap)
		for i := range b {
			b[i] = byte(i)
		}
		g := grown(b)
		if !bytes.Equal(g, b) || cap(g) <= cap(b) || (c.want > 0 && cap(g) != c.want) {
			t.Errorf("grown(%d bytes): %d bytes, cap %d; want the same bytes, cap %d", c.cap, len(g), cap(g), c.want)
		}
	}
	body := strings.Repeat("0123456789", 300000) // 3 MB, past several growths
	b, err := readAnswer(iotest.HalfReader(strings.NewReader(body)), -1)
	if err != nil || string(b) != body {
		t.Fatalf("readAnswer = %d bytes, %v", len(b), err)
	}
}
