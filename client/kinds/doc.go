// Package kinds is the one registry of the API's object kinds: per kind
// its list and single-object paths, the scope reading them needs, its
// natural key (an email, a name, a folder's path) and id shape, the path
// parameters and body keys that take its ids, the labels shown beside it,
// the completion views offered on it, and the objects of it an org cannot
// do without (built-in groups, system folders).
//
// Name resolution (client/resolve), completion (cmd/engine), org as code's
// live read (client/orgcode) and access reviews (client/access) read it, so
// they agree by construction. It is a leaf: besides the standard library
// it imports only output/jsonscan (the text of a JSON value), and knows no
// client, no cobra and no printer.
package kinds
