// Package seats holds the seat and least-privilege workflows: 'users
// inactive' (who has not signed in for N days, and which seats they hold),
// 'users reclaim' (disable them and end their sessions, as one resumable
// job) and 'permissions unused' (grants on apps that their holders did not
// use in a window). They read one users list, and the usage reports only
// when asked, so each answer costs what the API's least reads for it cost.
//
// Each command is an Options struct, NewCmdX(f, runF) that only parses
// flags into it, and a run function; engine.Describe gives its help the
// API, Scope, Cost and Requests lines a declared operation has, and
// cmd/families attaches it with engine.Attach.
//
// It must not import cmd/families, the root command package or a tool
// command.
package seats
