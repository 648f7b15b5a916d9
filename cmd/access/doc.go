// Package access holds the access-review workflows, commands that are not
// one API operation: 'permissions list-objects' (what a user or group
// reaches), 'permissions report' (the whole org's effective access, read
// as a resumable job), 'users offboard' (disable, leave every group, lose
// every direct grant, as one job) and the view of 'permissions
// access-list'. They share the org read of client/access, the report's
// columns and the read job.
//
// Each command is an Options struct, NewCmdX(f, runF) that only parses
// flags into it, and a run function; engine.Describe gives its help the
// API, Scope, Cost and Requests lines a declared operation has, and
// cmd/families attaches it with engine.Attach.
//
// It must not import cmd/families, the root command package or a tool
// command.
package access
