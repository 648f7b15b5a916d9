// Package engine turns a declared operation (package opdef: path, scope,
// fields, columns, and the build phase) into a cobra command (wire), and
// runs it. One call's phases read top to bottom in run.go: run parses the
// command line and builds the call once, and Engine.call takes the built
// call through the rest:
//
//	parse   (parseFlags)             the command line into an Input of raw text
//	build   (opdef.Placed.Build)     the Input into a checked Call, a stand-in id for each name (send.Find)
//	check   (checkColumns, send.Found.Refuse)  what can be refused before any request
//	dry run (DryRun, dryRunNames)    the lookups and requests, priced; nothing sent
//	confirm (refuseUnattended, confirm)  refused unattended before any lookup, asked after
//	resolve (Engine.resolveNames)    names to ids, one lookup per kind
//	bind    (opdef.Call.Bind)        the ids put where the stand-ins are
//	send    (send.Sender.Send)       reads, the request, its follow-ups, paced
//	print   (Engine.print)           the answer in the chosen format
//
// The same phases run once per row of a --from file in package bulkjob,
// which the engine starts (bulk.go) and which finds names and sends through
// package send as the engine does, never calling back into the engine; the
// job's life cycle comes from client/bulk. Shell completion of object
// names lives here too, since an Op's fields say which kind each takes.
//
// It knows no family: package families declares them with its types. It
// must not import families or the root command package.
package engine
