package settings

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/orgctl/orgctl/cmd/internal/ctlchar"
)

// Type is how a setting's text is read.
type Type int

const (
	TypeString Type = iota
	TypeBool
	TypeInt
	TypeDuration
	TypeEnum
	TypeURL
)

func (t Type) String() string {
	return [...]string{"text", "true or false", "a whole number", "a duration (30s, 5m, 1h)", "one of", "a URL"}[t]
}

// Setting is one configuration key: the same table drives reading and
// checking values from the file, a profile, the environment and flags,
// `orgctl config`, and `orgctl help environment`.
type Setting struct {
	Key  string // dotted config key, e.g. "budget.points"
	Type Type
	Enum []string
	// Min and Max bound integers and durations (Max 0: no upper bound).
	Min, Max int64
	Default  string
	Help     string
	// Flag is the global flag that sets it, if any.
	Flag string
	// EnvOnly settings have no config-file key (ORGCTL_TOKEN).
	EnvOnly bool
	// EnvName overrides the variable's name (NO_COLOR).
	EnvName string
	// Family marks budget.costs.<family>: Key is the prefix.
	Family bool
	// Schemes are the schemes a TypeURL takes; Words are plain values it
	// takes besides URLs ("file").
	Schemes, Words []string
}

// Env is the environment variable that sets it.
func (s Setting) Env() string {
	if s.EnvName != "" {
		return s.EnvName
	}
	return "ORGCTL_" + strings.ToUpper(strings.NewReplacer(".", "_", "-", "_").Replace(s.Key))
}

// Accepts describes what the setting takes, for error messages and help.
func (s Setting) Accepts() string {
	switch s.Type {
	case TypeEnum:
		return "one of " + strings.Join(s.Enum, ", ")
	case TypeInt:
		if s.Max > 0 {
			return fmt.Sprintf("a whole number from %d to %d", s.Min, s.Max)
		}
		return fmt.Sprintf("a whole number, at least %d", s.Min)
	case TypeDuration:
		if s.Min > 0 {
			return fmt.Sprintf("a positive duration such as 30s, 5m or 1h (at least %s)", time.Duration(s.Min))
		}
		return "a duration such as 30s, 5m or 1h (0 or more)"
	case TypeURL:
		starts := make([]string, len(s.Schemes))
		for i, sc := range s.Schemes {
			starts[i] = sc + "://"
		}
		return strings.Join(append(append([]string(nil), s.Words...), "a URL starting "+strings.Join(starts, " or ")), " or ")
	}
	return s.Type.String()
}

// badSetting is a value Parse refused: what was given (not kept for URLs,
// which may carry a password) and what is accepted instead.
type badSetting struct {
	value string
	url   bool
	want  string
}

func (e *badSetting) Error() string {
	if e.url {
		return "invalid URL: " + e.want
	}
	return fmt.Sprintf("invalid value %q: %s", e.value, e.want)
}

// Parse reads a value of the setting from text, checking type and range.
func (s Setting) Parse(text string) (any, error) {
	if c, bad := ctlchar.Find(text); bad && s.Type == TypeURL {
		// Refused rather than trimmed: a URL is sent in every request.
		return nil, &badSetting{url: true, want: "it holds a control character (" + c + "); set it to the address alone, e.g. https://acme.example.com"}
	}
	return s.parse(text)
}

func (s Setting) parse(text string) (any, error) {
	t := strings.TrimSpace(text)
	bad := func() (any, error) {
		return nil, &badSetting{value: text, want: "expected " + s.Accepts()}
	}
	switch s.Type {
	case TypeBool:
		b, err := strconv.ParseBool(t)
		if err != nil {
			return bad()
		}
		return b, nil
	case TypeInt:
		n, err := strconv.ParseInt(t, 10, 64)
		if err != nil || n < s.Min || (s.Max > 0 && n > s.Max) {
			return bad()
		}
		return n, nil
	case TypeDuration:
		d, err := time.ParseDuration(t)
		if err != nil || int64(d) < s.Min || (s.Max > 0 && int64(d) > s.Max) {
			return bad()
		}
		return d, nil
	case TypeEnum:
		if slices.Contains(s.Enum, t) {
			return t, nil
		}
		return bad()
	case TypeURL:
		return s.parseURL(t)
	}
	return text, nil
}

// parseURL reads a URL setting: empty, one of its words, or a URL of one
// of its schemes without user info where the API takes a token.
func (s Setting) parseURL(t string) (any, error) {
	if t == "" || slices.Contains(s.Words, t) {
		return t, nil
	}
	u, err := url.Parse(t)
	if err != nil {
		for _, sc := range s.Schemes {
			if strings.HasPrefix(t, sc+"://") && strings.Contains(t, "@") {
				// Most often a password with '/', '?', '#' or '@' in it.
				return nil, &badSetting{url: true, want: "not a valid URL: percent-encode '/', '?', '#', '@' and ':' in the user name and password (e.g. / as %2F)"}
			}
		}
	}
	if err != nil || u.Host == "" || !slices.Contains(s.Schemes, u.Scheme) {
		return nil, &badSetting{url: true, want: "expected " + s.Accepts()}
	}
	if u.User != nil && (u.Scheme == "http" || u.Scheme == "https") {
		// Never echoed: most likely a password. A Redis URL may carry one.
		return nil, &badSetting{url: true, want: "user info (USER:PASSWORD@) is not allowed; the API takes a token"}
	}
	return t, nil
}

// DefaultDuration is the default of a duration setting, for the flag that
// sets it; it panics on a key that is not one, a mistake in orgctl.
func DefaultDuration(key string) time.Duration {
	s, ok := Lookup(key)
	d, err := time.ParseDuration(s.Default)
	if !ok || s.Type != TypeDuration || err != nil {
		panic("settings: no duration default for " + key)
	}
	return d
}

// DefaultOf is a setting's default as written ("" for none).
func DefaultOf(key string) string {
	s, _ := Lookup(key)
	return s.Default
}

// All is every setting, in the order `orgctl help environment` shows them.
func All() []Setting { return table }

// table holds every key orgctl reads. Keep them sorted by Key within each
// block; `orgctl help environment` prints them in this order.
var table = []Setting{
	{Key: "base_url", Type: TypeURL, Schemes: []string{"https", "http"}, Help: "instance URL; orgctl appends /api/v2"},
	{Key: "token", EnvOnly: true, Help: "API token; overrides the stored one (never put it in the config file)"},
	{Key: "profile", Help: "profile to use", Default: "default", Flag: "profile"},
	{Key: "token_store", Type: TypeEnum, Enum: []string{"keyring", "file"}, Help: "where `auth login` stored the profile's token"},
	{Key: "space", Help: "the Space a profile was logged in to with `auth login --space`"},
	{Key: "output", Type: TypeEnum, Enum: []string{"table", "json", "yaml", "csv", "markdown"}, Default: "table", Help: "default output format (markdown: plans only)", Flag: "output"},
	{Key: "jq", Help: "filter JSON output with a jq expression", Flag: "jq"},
	{Key: "template", Help: "format output with a Go text/template", Flag: "template"},
	// Columns name one command's table, so no file or profile sets them for all.
	{Key: "columns", EnvOnly: true, Help: "pick and order table columns by name (a,b,c)", Flag: "columns"},
	{Key: "quiet", Type: TypeBool, Default: "false", Help: "print no notices on stderr", Flag: "quiet"},
	{Key: "debug", Type: TypeBool, Default: "false", Help: "log HTTP method, URL, status and timing to stderr (token redacted)", Flag: "debug"},
	{Key: "timeout", Type: TypeDuration, Min: int64(time.Millisecond), Default: "30s", Help: "time limit for each HTTP attempt", Flag: "timeout"},
	{Key: "max_wait", Type: TypeDuration, Default: "10m", Help: "longest wait (budget, lock, server backoff) before exit 5", Flag: "max-wait"},
	{Key: "insecure_http", Type: TypeBool, Default: "false", Help: "allow http:// to non-loopback hosts (the token is sent unencrypted)", Flag: "insecure-http"},
	{Key: "sandbox", Type: TypeBool, Default: "false", Help: "run against the built-in local demo org", Flag: "sandbox"},
	{Key: "budget.points", Type: TypeInt, Min: 1, Default: "300", Help: "budget points per window"},
	{Key: "budget.window", Type: TypeDuration, Min: int64(time.Millisecond), Default: "60s", Help: "budget window length"},
	{Key: "budget.block", Type: TypeDuration, Min: int64(time.Millisecond), Default: "60s", Help: "block assumed after a 429 without Retry-After"},
	{Key: "budget.reserve", Type: TypeInt, Min: 0, Default: "0", Help: "points per window left unused for other tools"},
	{Key: "budget.costs", Type: TypeInt, Min: 0, Family: true, Help: "budget.costs.FAMILY: override one family's price in points"},
	{Key: "budget.store", Type: TypeURL, Words: []string{"file"}, Schemes: []string{"redis", "rediss"}, Default: "file", Help: "where the ledger lives: file (this machine) or a Redis URL, redis://[user:password@]host:port/db (rediss:// for TLS), shared by a fleet"},
	{Key: "budget.store_fallback", Type: TypeEnum, Enum: []string{"none", "file"}, Default: "none", Help: "file: warn and use this machine's ledger while the store is down; none: fail"},
	{Key: "completion.cache_ttl", Type: TypeDuration, Default: "60s", Help: "how long completion keeps a fetched list"},
	{Key: "completion.timeout", Type: TypeDuration, Min: int64(time.Millisecond), Default: "1s", Help: "how long a completion may take before it gives up"},
	{Key: "sandbox_org", Type: TypeEnum, Enum: []string{"demo", "empty"}, Default: "demo", Help: "--sandbox: what a new sandbox org starts with"},
	{Key: "sandbox_points", Type: TypeInt, Min: 1, Default: "300", Help: "--sandbox: the sandbox's budget points per window"},
	{Key: "sandbox_window", Type: TypeDuration, Min: int64(time.Millisecond), Default: "60s", Help: "--sandbox: the sandbox's budget window"},
	{Key: "sandbox_block", Type: TypeDuration, Min: int64(time.Millisecond), Default: "60s", Help: "--sandbox: how long exceeding the sandbox's budget blocks"},
	{Key: "force_tty", EnvOnly: true, Type: TypeBool, Help: "render the terminal form even when piped (tests, recordings)"},
	{Key: "width", EnvOnly: true, Type: TypeInt, Min: 1, Help: "terminal width tables fit on (default: the terminal's, else COLUMNS)"},
	{Key: "no_color", EnvOnly: true, EnvName: "NO_COLOR", Help: "set (not empty) for no colour"},
	{Key: "clicolor_force", EnvOnly: true, EnvName: "CLICOLOR_FORCE", Help: "set (not 0) for colour even when piped; NO_COLOR wins"},
}

// Lookup finds a key's setting; budget.costs.<family> matches the
// budget.costs entry.
func Lookup(key string) (Setting, bool) {
	for _, s := range table {
		if s.Key == key || (s.Family && strings.HasPrefix(key, s.Key+".") && len(key) > len(s.Key)+1) {
			return s, true
		}
	}
	return Setting{}, false
}
