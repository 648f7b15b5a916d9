// Package jsonscan reads JSON text in place: it checks it with
// encoding/json's grammar and nesting limit and hands out the raw bytes of
// keys, strings and values without decoding or copying them, so that a
// many-megabyte answer can be found in its envelope by the client and
// streamed element by element by the printers, read once.
//
// The scanner's number reader ((*Reader).number) stays one function above
// the complexity of 25 held elsewhere: it is encoding/json's number grammar
// as one state machine, run for every number of every answer, and fuzzed
// against encoding/json; split, its states would be harder to check
// against the grammar and each byte would cost a call.
//
// It knows JSON and nothing else: it imports only the standard library,
// and must not import the client, output or anything of orgctl's.
package jsonscan
