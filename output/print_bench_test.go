package output

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/orgctl/orgctl/output/jsonscan"
)

// benchUsers is a list shaped like the API's users list, 20,000 records.
var benchUsers = sync.OnceValue(func() []byte {
	var sb strings.Builder
	sb.WriteByte('[')
	for i := 1; i <= 20000; i++ {
		if i > 1 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"active":%t,"created_at":"2024-%02d-%02dT%02d:%02d:%02d.000Z","email":"user%06d@example.com",`+
			`"first_name":"First%d","id":"user_%032x","is_admin":%t,"last_active":null,"last_name":"Last %d",`+
			`"legacy_id":%d,"metadata":{"team":"team-%d"},"two_factor_auth_enabled":false,"user_type":"default"}`,
			i%7 != 0, i%12+1, i%28+1, i%24, i%60, (i*7)%60, i, i, 0x5a4d0000000000+i, i%50 == 0, i, i, i%40)
	}
	sb.WriteByte(']')
	return []byte(sb.String())
})

// benchPrint prints as the engine does an answer the client has checked:
// through PrintCompact.
func benchPrint(b *testing.B, tty bool, o Options, cols []Column) {
	p := &Printer{IO: &IO{Out: io.Discard, OutTTY: tty}, Opts: o}
	benchLoop(b, p.PrintCompact, cols)
}

func benchLoop(b *testing.B, print func(json.RawMessage, []Column) error, cols []Column) {
	data := benchUsers()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if err := print(data, cols); err != nil {
			b.Fatal(err)
		}
	}
}

var benchColumns = []Column{{Header: "ID", Field: "id"}, {Header: "EMAIL", Field: "email"}, {Header: "FIRST NAME", Field: "first_name"},
	{Header: "LAST NAME", Field: "last_name"}, {Header: "ACTIVE", Field: "active"}, {Header: "ADMIN", Field: "is_admin"}}

func BenchmarkPrintJSON(b *testing.B)         { benchPrint(b, false, Options{Format: "json"}, nil) }
func BenchmarkPrintJSONIndented(b *testing.B) { benchPrint(b, true, Options{Format: "json"}, nil) }
func BenchmarkPrintTSV(b *testing.B)          { benchPrint(b, false, Options{}, benchColumns) }
func BenchmarkPrintTable(b *testing.B)        { benchPrint(b, true, Options{}, benchColumns) }
func BenchmarkPrintYAML(b *testing.B)         { benchPrint(b, false, Options{Format: "yaml"}, nil) }
func BenchmarkPrintJQField(b *testing.B)      { benchPrint(b, false, Options{JQ: ".[].email"}, nil) }
func BenchmarkPrintJQFilter(b *testing.B) {
	benchPrint(b, false, Options{JQ: ".[] | select(.active) | .id"}, nil)
}

// Unchecked: as Print reads data it cannot assume valid.
func BenchmarkPrintTSVUnchecked(b *testing.B) {
	benchLoop(b, (&Printer{IO: &IO{Out: io.Discard}}).Print, benchColumns)
}

func BenchmarkPrintJQFieldUnchecked(b *testing.B) {
	benchLoop(b, (&Printer{IO: &IO{Out: io.Discard}, Opts: Options{JQ: ".[].email"}}).Print, nil)
}

// The reader alone, as every format pays it.
func BenchmarkReadWhole(b *testing.B) {
	data := benchUsers()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		r := &jsonscan.Reader{Data: data}
		if _, err := r.Skip(); err != nil {
			b.Fatal(err)
		}
	}
}

// Rendering as an answer arrives in full: checked as read, output held in
// memory.
func benchRender(b *testing.B, o Options, cols []Column) {
	render := (&Printer{IO: &IO{Out: io.Discard}, Opts: o}).Renderer(cols)
	benchLoop(b, func(data json.RawMessage, _ []Column) error {
		if render(&jsonscan.Reader{Data: data}) == nil {
			return errors.New("not rendered")
		}
		return nil
	}, cols)
}

func BenchmarkRenderYAML(b *testing.B) { benchRender(b, Options{Format: "yaml"}, nil) }
func BenchmarkRenderTSV(b *testing.B)  { benchRender(b, Options{}, benchColumns) }

// What reading in place (jsonscan) is measured against: the first wave's
// printers decoded the whole answer into a tree of Go values first, then
// wrote YAML from the tree (yaml.v3) or TSV from each decoded record.
func BenchmarkPrintYAMLViaTree(b *testing.B) {
	benchLoop(b, func(data json.RawMessage, _ []Column) error {
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			return err
		}
		out, err := yaml.Marshal(v)
		if err == nil {
			_, err = io.Discard.Write(out)
		}
		return err
	}, nil)
}

func BenchmarkReadWholeViaTree(b *testing.B) {
	benchLoop(b, func(data json.RawMessage, _ []Column) error {
		var v any
		return json.Unmarshal(data, &v)
	}, nil)
}
