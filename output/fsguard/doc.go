// Package fsguard keeps orgctl's own files (the budget ledger, bulk jobs,
// caches, the config file) from being turned against their user: orgctl
// run as root (sudo with the caller's HOME) or in a shared CI state
// directory would otherwise write wherever another user's symlink points.
//
// Like ssh with ~/.ssh, orgctl writes only in a directory that belongs to
// its user and that no one else can write, nor can anyone else write any
// directory above it (one owned by root, or sticky like /tmp, is fine
// above it): otherwise it refuses, naming the path and the fix. And it
// opens the files it writes in place without following a symlink
// (NoFollow); files it replaces whole are renamed into place, which
// replaces a symlink rather than following it.
//
// It is a leaf: it imports only the standard library.
package fsguard
