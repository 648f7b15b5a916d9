// Package version is what an orgctl binary says about itself: `orgctl
// version` and the root's --version. A release sets the version, commit
// and date at link time (-ldflags -X); otherwise they come from the build
// info the Go toolchain embeds: the module version of `go install
// ...@vX`, and the commit, its time and whether the tree was modified for
// a build from a checkout.
//
// Reading the build info parses a string embedded in the binary; it
// costs microseconds, so --version stays as cheap as it was.
//
// It must not import the root command package or another tool command.
package version
