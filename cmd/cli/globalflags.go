package cli

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/output"
)

// AddGlobalFlags defines the root's persistent flags, in one place for the
// root, its start-up shortcut (which steps over a global flag's value
// without listing the flags again) and the test roots of the packages
// below it.
func AddGlobalFlags(pf *pflag.FlagSet) {
	pf.String("profile", "", "use the named profile from the config file (env ORGCTL_PROFILE)")
	pf.StringP("output", "o", settings.DefaultOf("output"), "output format: "+strings.Join(output.Formats, ", "))
	pf.String("jq", "", "filter JSON output with a jq `EXPRESSION`")
	pf.String("template", "", "format output with a Go text/template `TEMPLATE`")
	pf.String("columns", "", "show only these table `COLUMNS`, in this order (a,b,c; also tab-separated output)")
	pf.BoolP("quiet", "q", false, "print no notices on stderr (errors and warnings still show)")
	pf.Bool("debug", false, "log each HTTP request (method, URL, status, timing) to stderr; the token is never shown")
	pf.Bool("sandbox", false, "run against the built-in local demo org instead of a real one")
	pf.Duration("max-wait", settings.DefaultDuration("max_wait"), "give up (exit 5) when the rate budget would make a request wait longer than this")
	pf.Duration("timeout", settings.DefaultDuration("timeout"), "time limit for each HTTP attempt")
	pf.Bool("insecure-http", false, "allow plain http:// to a non-loopback host (the token is sent unencrypted)")
}
