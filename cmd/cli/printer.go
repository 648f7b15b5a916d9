package cli

import (
	"os"
	"strings"

	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/output"
)

// PrinterFor reads the configuration and builds the output printer from
// it: the first step of every command that prints.
func PrinterFor(f *Factory) (*settings.Config, *output.Printer, error) {
	cfg, err := f.Config()
	if err != nil {
		return nil, nil, err
	}
	p, err := NewPrinter(f.IO, cfg)
	return cfg, p, err
}

// ProfileRunEnv, set in the environment of each run of a command line with
// --profiles, tells that run it prints for the parent that joins the
// runs' outputs: -o csv as output.Options.Rows writes it.
const ProfileRunEnv = "ORGCTL_PROFILE_RUN"

// ProfileRunTerminal is ProfileRunEnv's value when the parent prints to a
// terminal: the run's own output is a pipe, but a person reads the table
// the parent joins from it.
const ProfileRunTerminal = "terminal"

// ReadByPerson reports whether a person reads what the command prints: its
// stdout is a terminal, or it is a profile's run whose parent's is. Work
// done only for people (reading the names of objects an answer gives by
// id) is done when this holds, and skipped for programs.
func ReadByPerson(io *output.IO) bool {
	return io.OutTTY || os.Getenv(ProfileRunEnv) == ProfileRunTerminal
}

// NewPrinter builds the output printer from -o, --jq and --template.
func NewPrinter(io *output.IO, cfg *settings.Config) (*output.Printer, error) {
	opts := output.Options{
		Format:   cfg.Output,
		JQ:       cfg.JQ,
		Template: cfg.Template,
		Columns:  cfg.Columns,
	}
	if opts.Format == "markdown" {
		return nil, UsageErrorf("-o markdown renders plans (`orgctl plan -o markdown`); this command prints %s", strings.Join(output.Formats, ", "))
	}
	if err := opts.Validate(); err != nil {
		return nil, &UsageError{Err: err}
	}
	opts.Rows = opts.Format == "csv" && os.Getenv(ProfileRunEnv) != ""
	return &output.Printer{IO: io, Opts: opts}, nil
}
