// Package redact hides the secrets a URL can carry before orgctl prints it:
// every message, listing, diagnosis and debug log that shows a URL goes
// through URL or Text, so there is one rule to get right.
//
// The user info of a URL (user:password@) is masked whatever the password
// holds. People paste passwords unencoded, and base64-style ones contain
// '/', '?', '#' and even '@', which end the authority for a URL parser: a
// parser then reads part of the password as the host or the path. So the
// user info is taken to run to the last '@' of the URL, parsed or not. A URL
// whose path or query holds an '@' loses more than its user info when shown;
// that costs a message some detail, never a secret.
//
// It imports nothing of orgctl, so every package may use it.
package redact
