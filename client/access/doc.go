// Package access answers an access review's questions from the management
// API's permission answers: who reaches an object and through what (Via,
// over an access list's "sources"), what a user reaches (Org.Reach), and the
// whole org's effective access, one Row per user and object (Rows), read
// either way the API allows (AccessListReads, ListObjectsReads), compared
// with an earlier review (Changes) and kept as CSV (WriteCSV, ReadCSV).
//
// Org reads the lists that turn the answers' ids into names: users, groups
// with their members, folders as paths, and the objects with access lists.
// It sends through client.Client and knows no command line: package
// cmd/access holds the commands (permissions access-list's view,
// list-objects, report; users offboard) and runs a review's reads as a
// bulk job.
package access
