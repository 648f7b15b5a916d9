// Package engine turns a declarative Op (package opdef: path, scope,
// fields, columns) into a cobra command (wire), and runs it (run) in named
// phases:
//
//	parse   (parseFlags)            the command line into an Input of raw text
//	build   (opdef.Op.Build)        the Input into a checked Call; nothing sent
//	resolve (Engine.resolveNames)   names to ids, with one lookup per kind
//	send    (Engine.sendWith)       reads, the request, its follow-ups, paced
//	print   (Engine.print)          the answer in the chosen format
//
// One call's phases read top to bottom in run.go: Op.run parses and
// builds, Engine.runInput resolves names, and Engine.runCall puts the dry
// run or the confirmation between build and send, then prints.
//
// The same phases run once per row of a --from file in package bulkjob,
// which asks them of the engine through bulkjob.Engine (bulk.go); the
// job's life cycle comes from client/bulk. Shell completion of object
// names lives here too, since an Op's fields say which kind each takes.
//
// It knows no family: package families declares them with its types. It
// must not import families or the root command package.
package engine
