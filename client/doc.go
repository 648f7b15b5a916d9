// Package client knows the management API: the base URL and its /api/v2
// prefix, bearer authentication, the response envelope
// {success,data,total_count,next_token,has_more}, the error body
// {success:false,message}, path escaping, retries, pacing hooks and typed
// errors. Every HTTP policy lives in one chain of RoundTrippers so commands
// just make requests.
//
// It knows nothing of cobra, flags or output formats: it must not import cmd
// or output. It paces through the small Pacer interface, so the point ledger
// (package ratebudget) stays free of HTTP.
package client
