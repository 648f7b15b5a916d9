// Package output owns how orgctl shows data: terminal detection, the
// table/json/yaml formats, --jq and --template, and stderr notices.
//
// It knows nothing of the API: it is handed raw JSON (the API's `data`,
// exactly as received) plus a column description, and must not import
// client, cmd or ratebudget.
//
// Answers can be large, so the JSON is read in place (jsonscan) and every
// format except the aligned terminal table and --template is written one
// record at a time through a buffered writer: printing costs little memory
// beyond the answer itself. A Renderer does the same work while the answer
// still arrives, into memory (a spool of huge-page pieces) that is written
// only once the answer is whole and checked; renderList spreads a list's
// elements over every CPU once the list is in (list.go). The YAML writer
// (yamlout.go) reproduces yaml.v3's output for the same data;
// stream_test.go holds each writer against the code it replaced, and every
// rendering against printing.
package output
