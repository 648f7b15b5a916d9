// Package orgcode owns org as code: the model of an organization's
// configuration as files (one folder per kind, one YAML file per object,
// named and cross-referenced by natural keys, never by ids), the read of
// the live org that the files are compared with (one list per kind, so a
// plan costs few points, and a referred kind's list only when the
// references need it), the diff between the two, and the plan: the
// changes, those blocked for want of what the org lacks and this API
// cannot create (an app), the requests that make them in dependency
// order, and what those requests cost in points and budget time. A saved
// plan applies exactly or not at all.
//
// It writes and reads files and sends requests through a Doer (the paced
// orgctl client); running the plan's steps (workers, journal, resume) is
// client/bulk's, driven by cmd. It knows no cobra and no output formats: it
// must not import cmd, output or completions.
package orgcode
