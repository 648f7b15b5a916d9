// Package bulkjob runs a declared operation once per row of a --from
// file, as one job of client/bulk. It owns the file's options and flags,
// reading the file (columns to flags and arguments, --map, encodings), the
// check pass that lists every problem before anything is sent, the dry
// run's count of requests and points, each row's run (names resolved once
// per kind, what already exists looked for, --on-exists followed, a row an
// earlier run sent without an answer settled before it is sent again),
// follow-ups joined across rows, the results on stdout, in --report and
// --failed, and the carry-over from a job on an earlier version of the
// file.
//
// The job is parts with one purpose each: jobSpec (what the command line
// asked), fileInput (the file), checkPass (what the check pass learned),
// rowRunner (the bulk.Handler), jobOutput (the results); bulkJob holds
// them and drives the job's bulk.Session: it opens it, gets ready (confirm,
// say what an earlier run left), and hands each row's result to jobOutput
// as it comes. client/bulk calls back only into rowRunner, to send a row.
//
// A row is built twice, on purpose: the check pass builds every row with
// stand-ins for its names and keeps none of the calls, so a file of a
// hundred thousand rows is checked whole in the memory of one row; the row
// is built again, with its ids, only when it is sent.
//
// What it shares with the engine that runs one command (send a built call
// paced by the budget, find the names in an Input, the name cache) it
// takes from package send, which both use: the engine starts a job and the
// job never calls back into it. It imports opdef for what an operation is;
// it must not import cmd/engine (which imports it), families or the root
// command package.
package bulkjob
