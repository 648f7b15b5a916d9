package cli

import (
	"path/filepath"

	"github.com/orgctl/orgctl/client/bulk"
	"github.com/orgctl/orgctl/cmd/settings"
)

// JobStore is where every job keeps its journal (--from runs, apply,
// offboarding, the report's reads), and where `orgctl jobs` finds them.
func JobStore() bulk.Store { return bulk.Store{Dir: filepath.Join(settings.StateDir(), "jobs")} }
