package version

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/output/lazy"
)

// Set at link time by a release build, for example
//
//	-X github.com/orgctl/orgctl/cmd/version.version=1.2.3
//	-X github.com/orgctl/orgctl/cmd/version.commit=<full hash>
//	-X github.com/orgctl/orgctl/cmd/version.date=2026-11-27T10:00:00Z
//
// Empty means: take it from the build info.
var (
	version string
	commit  string
	date    string
)

// Info describes one binary.
type Info struct {
	// Version is the release version ("1.2.3"), the module version of a
	// `go install` ("v1.2.3", or a pseudo-version that names the commit),
	// or "dev" when the binary knows none.
	Version string `json:"version"`
	// Commit is the full hash of the commit built, empty when unknown.
	Commit string `json:"commit"`
	// Modified is set when the working tree had changes the commit lacks.
	Modified bool `json:"modified"`
	// Date is when the commit was made (or the release built), RFC 3339.
	Date      string `json:"date"`
	GoVersion string `json:"go_version"`
	Platform  string `json:"platform"`
}

var built = lazy.Value[Info]{New: func() Info {
	bi, _ := debug.ReadBuildInfo()
	return fromBuild(bi, version, commit, date)
}}

// Get is this binary's Info.
func Get() Info { return built.Get() }

// fromBuild combines the link-time values with the build info (nil when
// the binary has none); a link-time value wins.
func fromBuild(bi *debug.BuildInfo, linkVersion, linkCommit, linkDate string) Info {
	info := Info{Version: linkVersion, Commit: linkCommit, Date: linkDate,
		GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi != nil {
		info.GoVersion = bi.GoVersion
		if info.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			info.Version = bi.Main.Version
		}
		var vcsCommit, vcsTime string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				vcsCommit = s.Value
			case "vcs.time":
				vcsTime = s.Value
			case "vcs.modified":
				info.Modified = s.Value == "true"
			}
		}
		if info.Commit == "" {
			info.Commit = vcsCommit
		}
		if info.Date == "" {
			info.Date = vcsTime
		}
	}
	if info.Version == "" {
		info.Version = "dev"
	}
	return info
}

// String is the text `orgctl --version` prints: the version on the first
// line, as `orgctl version 1.2.3`, then one line per detail.
func (i Info) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "orgctl version %s\n", i.Version)
	c := i.Commit
	if c == "" {
		c = "unknown"
	}
	if i.Modified {
		c += "-dirty"
	}
	fmt.Fprintf(&b, "commit:   %s\n", c)
	if i.Date != "" {
		fmt.Fprintf(&b, "built:    %s\n", i.Date)
	}
	fmt.Fprintf(&b, "go:       %s\n", i.GoVersion)
	fmt.Fprintf(&b, "platform: %s\n", i.Platform)
	return b.String()
}

// NewCmd is `orgctl version`.
func NewCmd(f *cli.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Show orgctl's version, commit, build date, Go version and platform",
		Long: `Show what this orgctl binary is: its version, the commit it was built from
("-dirty" when the working tree had changes), when that commit was made, the Go
version that built it and the platform it runs on. Bug reports should include it.

orgctl --version prints the same text. -o json, -o yaml, --jq and --template
format it as data.`,
		Example: "  orgctl version\n  orgctl version -o json",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if !structured(c) {
				_, err := fmt.Fprint(f.IO.Out, Get().String())
				return err
			}
			_, p, err := cli.PrinterFor(f)
			if err != nil {
				return err
			}
			b, err := json.Marshal(Get())
			if err != nil {
				return err
			}
			return p.Print(b, nil)
		},
	}
}

// structured reports whether a flag asks for data rather than text. The
// plain text needs no configuration, so a broken config file does not
// hide the version from a bug report.
func structured(c *cobra.Command) bool {
	for _, name := range []string{"output", "jq", "template"} {
		if fl := c.Flags().Lookup(name); fl != nil && fl.Changed && (name != "output" || fl.Value.String() != "table") {
			return true
		}
	}
	return false
}
