// Package published knows what an instance publishes: it reads the
// instance's own OpenAPI description (GET /api/v2/spec) into a Description
// (its API version and, per operation, the query parameters it takes),
// keeps it in a cache per account (token and base URL) for a day, and
// answers whether the instance describes an operation (Has) and a query
// parameter of one (HasQuery); the engine's version gate asks before a
// request is sent. An instance that serves no description is used as it
// always was.
//
// It knows client/spec (orgctl's own tables, for the version that first
// has an operation) but not how the description is fetched: the caller
// passes a function that reads it through the client, so that the read is
// priced and paced like any other request. It must not import cmd.
package published
