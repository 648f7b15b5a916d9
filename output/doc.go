// Package output owns how orgctl shows data: terminal detection, the
// table/json/yaml formats, --jq and --template, and stderr notices.
//
// It knows nothing of the API: it is handed raw JSON (the API's `data`,
// exactly as received) plus a column description, and must not import
// client, cmd or ratebudget.
//
// Text from the org is untrusted (a name can hold ESC ] 52, a clipboard
// write, or U+202E): on a terminal it is shown as Safe (output/safetext)
// shows it, escaped. The table, records, detail views and notices apply
// Safe to each value; and a terminal stream is wrapped (terminalWriter)
// so that only orgctl's own colours and line clearing pass, whatever a
// command prints by hand. -o json and -o yaml on a terminal go through the
// same stream: their control characters are JSON-escaped already, and a
// bidi control shows as \u202e, which in JSON (and in a YAML double-quoted
// string) still means the same character, as kubectl does. Piped output is
// never touched: -o json is the data as received, TSV and CSV keep their
// own escaping.
//
// Answers can be large, so the JSON is read in place (jsonscan) and every
// format except the aligned terminal table and --template is written one
// record at a time through a buffered writer: printing costs little memory
// beyond the answer itself. A Renderer does the same work while the answer
// still arrives, into memory (a spool of huge-page pieces) that is written
// only once the answer is whole and checked. The YAML writer (yamlout.go)
// reproduces yaml.v3's output for the same data; stream_test.go holds each
// writer against the code it replaced, and every rendering against
// printing.
//
// A few of yamlout.go's functions stay long and branchy (analyzeScalar,
// isRFC3339, writeDoubleQuoted, above the complexity of 25 held
// elsewhere): each follows one routine of yaml.v3's emitter branch for
// branch, so that the two can be read side by side, and runs for every
// scalar printed, where splitting it would add calls on the hot path. They
// are held by the differential test and fuzz target against yaml.v3, not
// by their shape.
//
// What each of these is worth, measured on the 2-core CI machine with
// .ci/bench-output.sh (100,000 users, 32 MB; times as multiples of curl's
// for the same answer, on loopback and at 20 MB/s; RSS as a multiple of
// the answer) and the benchmarks in print_bench_test.go (20,000 users,
// 6 MB). Loopback figures move by 0.5x from run to run on this shared
// machine.
//   - Rendering while the answer arrives (Renderer): at 20 MB/s 1.00x for
//     every format, against 1.07x-1.12x without it (the rendering then
//     follows the last byte); on loopback YAML 3.4x against 6.4x. It costs
//     memory, since the output waits in a spool: YAML 2.62x against 1.56x.
//   - Reading in place (jsonscan): BenchmarkReadWhole 16.5 ms with no
//     allocation, against 144 ms and 35 MB for encoding/json's tree of
//     values (BenchmarkReadWholeViaTree); YAML 34 ms and 85 KB against
//     1.1-2.9 s and 888 MB through yaml.v3 (BenchmarkPrintYAMLViaTree).
//   - Huge pages for answer buffers and spools (hugepage): on loopback
//     terminal JSON 3.7x against 6.2x without the advice, YAML 3.4x
//     against 4.8x; at 20 MB/s no difference; RSS 0.1x higher.
//   - default.pgo (profile-guided optimisation of the whole binary): on
//     loopback YAML 3.4x against 5.8x without it; the other formats within
//     the noise; at 20 MB/s no difference.
//   - The terminal table is drawn by tablewriter v1 with its cache of
//     text widths turned off: a 20,000-row table (BenchmarkPrintTable)
//     takes 1.45 s of CPU without the cache against 2.56 s with it, as
//     the cells are mostly distinct; v0.0.5 of the library took 0.52 s.
//     TestWriteTableLayout holds the layout to what v0.0.5 printed. v1
//     also makes that cache (8,192 entries) in its package init, on every
//     orgctl start whether or not a table is drawn: .ci/bench-startup.sh
//     builds orgctl against a copy of the library without that line, and
//     it starts in about 0.06x-0.09x of the floor's time less.
//   - Writing a list on every CPU once it is in was removed: it gained
//     nothing at 20 MB/s (1.00x with and without), only on loopback (YAML
//     2.9x against 4.6x), and cost memory (YAML 2.70x against 2.62x).
package output
