// Package client knows the management API: the base URL and its /api/v2
// prefix, bearer authentication, the response envelope
// {success,data,total_count,next_token,has_more}, the error body
// {success:false,message}, path escaping, retries, pacing hooks and typed
// errors. Every HTTP policy lives in one chain of RoundTrippers so commands
// just make requests.
//
// It knows nothing of cobra, flags or output formats: it must not import
// cmd or output. A caller that wants a large answer's data while it arrives
// passes a callback (Request.Render) that reads the data value; the client
// calls it from the attempt that reads the answer and hands back what it
// returned (Response.Rendered), and knows nothing of what it does. The
// answer is decoded in place with output/jsonscan, a JSON scanner that
// knows neither the API nor any format, shared with the printer so that a
// 30 MB list is read once; buffers that large come from output/hugepage.
// It paces through the small Pacer interface, so the point ledger (package
// ratebudget) stays free of HTTP.
//
// A Request is declared in the leaf client/request, with the path escaping,
// so that what only declares or checks requests needs no network code.
package client
