// Package request is one call of the management API as data: its method,
// its escaped path relative to /api/v2, query, body and the scope it needs;
// and the path escaping that keeps an id from changing which endpoint is
// called. Package client sends it; what only declares or checks a request
// (cmd/engine/opdef) uses it without pulling in the network.
//
// It is a leaf: it imports the standard library (never net/http) and
// output/jsonscan for the type of Request.Render, nothing else.
package request
