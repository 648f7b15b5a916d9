// Package resolve owns natural keys: how people name the objects of each
// kind (users by email, groups by name, folders by path such as
// app:/Finance/Reports, apps and resources by name) and how such a name
// becomes the id the API takes, with the fewest points. What each kind is
// (its list, key, id shape) is the registry's, in client/kinds.
//
// One Resolver serves every caller that needs it: names typed on the
// command line, columns of a bulk file, lookups that decide whether a bulk
// row whose answer was lost was applied, and references in org-as-code
// files. Text that already looks like an id of its kind is used as is,
// without a request. Otherwise a kind with a filtered list (GET
// /users?email=) is asked for just that key; any other kind is listed once
// (one request, every object) and the list is kept for the process, and in
// a Store between processes when one is given.
//
// It sends requests through a Doer (the orgctl client, so every lookup is
// paced and priced like any request) and knows no cobra: it must not import
// cmd, output or completions.
package resolve
