package cli

import (
	"fmt"

	"github.com/orgctl/orgctl/cmd/internal/ctlchar"
)

// CheckTokenText refuses a token that holds a control character, naming where
// the token came from (what: "the token in ORGCTL_TOKEN") and never the
// token itself; fix says what to do.
func CheckTokenText(token, what, fix string) error {
	name, bad := ctlchar.Find(token)
	if !bad {
		return nil
	}
	return UsageErrorf("%s holds a control character (%s), which cannot be sent in a request; %s", what, name, fix)
}

// tokenWhere names where a resolved token came from, for CheckTokenText.
func tokenWhere(source, profile, fileDir string) (what, fix string) {
	switch source {
	case SourceEnv:
		return "the token in ORGCTL_TOKEN", "set ORGCTL_TOKEN to the token alone (no line breaks)"
	case SourceKeyring:
		return fmt.Sprintf("the token stored in the OS keyring for profile %q", profile),
			fmt.Sprintf("log in again with `orgctl auth login --profile %s`", profile)
	default:
		return fmt.Sprintf("the token file of profile %q (in %s)", profile, fileDir),
			fmt.Sprintf("log in again with `orgctl auth login --profile %s --insecure-storage`", profile)
	}
}

// CheckBaseURLText refuses a base URL that holds a control character;
// where names where it came from ("--base-url"). A base URL from the
// environment or the config file is checked with the other settings.
func CheckBaseURLText(base, where string) error {
	name, bad := ctlchar.Find(base)
	if !bad {
		return nil
	}
	if where == "" {
		where = "the base URL"
	} else {
		where = "the base URL from " + where
	}
	return UsageErrorf("%s holds a control character (%s); set it to the address alone, e.g. https://acme.example.com", where, name)
}
