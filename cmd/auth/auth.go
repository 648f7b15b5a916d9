package auth

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/credentials"
	"github.com/orgctl/orgctl/cmd/internal/suggest"
	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/output"
)

func NewCmd(f *cli.Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "auth",
		Short: "Log in, check and remove API tokens per profile",
		Long: `Tokens are stored per profile in the OS keyring (service "orgctl"). Where no
keyring is available, use ORGCTL_TOKEN, or log in with --insecure-storage to keep
the token in a file readable only by you.

Token resolution order: ORGCTL_TOKEN > keyring > --insecure-storage file.`,
		Args: cli.NoArgsGroup,
		RunE: func(c *cobra.Command, _ []string) error { return c.Help() },
	}
	c.AddCommand(newAuthLoginCmd(f), newAuthStatusCmd(f), newAuthSwitchCmd(f), newAuthLogoutCmd(f), newAuthTokenCmd(f))
	return c
}

type loginOptions struct {
	BaseURL         string
	WithToken       bool
	InsecureStorage bool
	Space           string
}

func newAuthLoginCmd(f *cli.Factory) *cobra.Command {
	var o loginOptions
	c := &cobra.Command{
		Use:   "login",
		Short: "Store an API token for a profile after checking it",
		Long: `Log in to an organization (or one of its Spaces) with an API token.

On a terminal, orgctl asks for the base URL (offering https:// for a bare host,
and asking again when the host cannot be reached) and then the token (input
hidden). It checks that the OS keyring can keep the token before asking for it.
In scripts, pipe the token on stdin with --with-token; the token is never
accepted as an argument, where ps and shell history would show it.

The token is checked with one cheap request (GET /users?limit=1, 2 points): HTTP
401 means it is rejected; 200 or 403 mean it is valid (403 only says it lacks
the Users scope). It is then stored in the OS keyring, or with
--insecure-storage in a 0600 file under $XDG_CONFIG_HOME/orgctl/tokens.
Last, orgctl names the user the token belongs to when the token may list access
tokens and users (GET /access_tokens and GET /users, one request each); else it
names the profile and base URL.`,
		Example: `  orgctl auth login
  printf %s "$TOKEN" | orgctl auth login --with-token --base-url https://acme.example.com
  orgctl auth login --profile staging --base-url https://staging.acme.example.com
  orgctl auth login --space eng --profile eng`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return authLogin(c.Context(), f, o) },
	}
	fl := c.Flags()
	fl.StringVar(&o.BaseURL, "base-url", "", "instance `URL`, e.g. https://acme.example.com (/api/v2 is added)")
	fl.BoolVar(&o.WithToken, "with-token", false, "read the token from stdin")
	fl.BoolVar(&o.InsecureStorage, "insecure-storage", false, "store the token in a 0600 file instead of the OS keyring")
	fl.StringVar(&o.Space, "space", "", "log in to the Space `NAME` (looked up through the current profile, GET /spaces) as a profile of its own: NAME, or --profile")
	return c
}

func authLogin(ctx context.Context, f *cli.Factory, o loginOptions) error {
	interactive := f.CanPrompt()
	if !o.WithToken && !interactive {
		return cli.UsageErrorf("stdin is not a terminal: pass the token on stdin with --with-token\n" +
			"  e.g. printf %%s \"$TOKEN\" | orgctl auth login --with-token --base-url https://acme.example.com")
	}
	f.NewProfile = true // logging in is how a profile comes to exist
	cfg, err := f.Config()
	if err != nil {
		return err
	}
	profile, base, err := loginTarget(ctx, f, cfg, o)
	if err != nil {
		return err
	}
	insecure := cfg.InsecureHTTP
	if base == "" {
		if !interactive {
			return cli.UsageErrorf("no base URL: pass --base-url https://acme.example.com (or set ORGCTL_BASE_URL)")
		}
		if base, err = askBaseURL(ctx, f, insecure); err != nil {
			return err
		}
	} else if err := checkGivenBaseURL(o, cfg, base); err != nil {
		return err
	}
	store, storeName := f.Tokens.Keyring, cli.SourceKeyring
	if o.InsecureStorage {
		store, storeName = f.Tokens.File, cli.SourceFile
	}
	if storeName == cli.SourceKeyring {
		// Find out now, not after the token was typed, that it cannot be kept.
		if _, err := store.Get(profile); err != nil && !errors.Is(err, credentials.ErrNotFound) {
			return fmt.Errorf("nowhere to store the token: %w", err)
		}
	}
	read := askToken
	if o.WithToken {
		read = pipedToken
	}
	token, cl, err := read(ctx, f, cfg, base)
	if err != nil {
		return err
	}
	if err := store.Set(profile, token); err != nil {
		return fmt.Errorf("could not store the token: %w", err)
	}
	saved := map[string]any{"base_url": base, "token_store": storeName}
	if o.Space != "" {
		saved["space"] = o.Space
	}
	if insecure {
		saved["insecure_http"] = true
	}
	if err := settings.SaveProfile(profile, saved, false); err != nil {
		return fmt.Errorf("token stored, but the config file could not be written: %w", err)
	}
	if storeName == cli.SourceKeyring {
		f.Tokens.File.Delete(profile) // an older insecure copy must not outlive the switch
	}
	where := "the OS keyring"
	if storeName == cli.SourceFile {
		where = tokenFileWhere(f, profile)
	}
	if who := tokenOwner(ctx, cl, token); who != "" {
		f.IO.Notice("Logged in to %s as %s, profile %q (token …%s, stored in %s).", base, who, profile, cli.Last4(token), where)
	} else {
		f.IO.Notice("Logged in to %s as profile %q (token …%s, stored in %s); the API does not say whose token it is.", base, profile, cli.Last4(token), where)
	}
	if os.Getenv("ORGCTL_TOKEN") != "" {
		f.IO.Warn("ORGCTL_TOKEN is set in this environment and takes precedence over the stored token")
	}
	return nil
}

// tokenFileWhere names the file a profile's token was written to, and
// who may read it: "/home/ada/.config/orgctl/tokens/prod: mode 0600, in a
// 0700 directory".
func tokenFileWhere(f *cli.Factory, profile string) string {
	path := filepath.Join(settings.TokenFileDir(), profile)
	if fs, ok := f.Tokens.File.(credentials.File); ok {
		if p, err := fs.Path(profile); err == nil {
			path = p
		}
	}
	return path + ": mode 0600, in a 0700 directory"
}

// loginTarget is the profile a login writes and its base URL, if known
// without asking: --base-url, the profile's, or the Space's (looked up
// through another profile, one request).
func loginTarget(ctx context.Context, f *cli.Factory, cfg *settings.Config, o loginOptions) (profile, base string, err error) {
	profile, base = cfg.Profile, cmp.Or(o.BaseURL, cfg.BaseURL)
	if o.Space == "" {
		return profile, base, nil
	}
	target, lookup, err := spaceProfiles(cfg, o.Space)
	if err != nil {
		return "", "", err
	}
	base = o.BaseURL
	if base == "" && settings.ProfileSetting(target, "space") == o.Space {
		base = settings.ProfileSetting(target, "base_url") // logging in again: no lookup
	}
	if base == "" {
		lcfg := cfg
		if lookup != cfg.Profile {
			if lcfg, err = f.Sources.LoadProfile(lookup, settings.LoadOptions{Families: f.Families}); err != nil {
				return "", "", err
			}
		}
		if base, err = spaceBaseURL(ctx, f, lcfg, o.Space); err != nil {
			return "", "", err
		}
	}
	// The Space's profile is added beside the others: the current
	// profile stays current, and no other profile changes.
	if err := settings.KeepCurrentProfile(); err != nil {
		return "", "", err
	}
	return target, base, nil
}

// checkGivenBaseURL checks a base URL login did not ask for, naming where
// it came from.
func checkGivenBaseURL(o loginOptions, cfg *settings.Config, base string) error {
	where := "--base-url"
	if o.BaseURL == "" {
		where = cfg.Origin("base_url")
	}
	if err := cli.CheckBaseURLText(base, where); err != nil {
		return err
	}
	_, err := client.ValidateBaseURL(base, cfg.InsecureHTTP)
	return err
}

// tokenProblem rejects text that cannot be a token, before it is sent.
func tokenProblem(token string) error {
	if token == "" {
		return cli.UsageErrorf("empty token: nothing to store")
	}
	if err := cli.CheckTokenText(token, "the token read from stdin", "paste only the token"); err != nil {
		return err
	}
	if strings.ContainsAny(token, " \t\r\n") {
		return cli.UsageErrorf("the token contains whitespace; paste only the token")
	}
	return nil
}

// checkedClient is a client for a token the API accepted.
func checkedClient(ctx context.Context, f *cli.Factory, cfg *settings.Config, base, token string) (*client.Client, error) {
	cl, err := cli.TargetClient(f, cfg, &cli.Target{BaseURL: base, Token: token, Transport: f.Transport})
	if err != nil {
		return nil, err
	}
	valid, err := cli.CheckToken(ctx, cl)
	if err != nil {
		return nil, explainReach(base, err)
	}
	if !valid {
		return nil, &cli.AuthError{Err: fmt.Errorf("token rejected by %s (HTTP 401): nothing was stored; check the token and try again", base)}
	}
	return cl, nil
}

// pipedToken reads the token from stdin (--with-token) and checks it.
func pipedToken(ctx context.Context, f *cli.Factory, cfg *settings.Config, base string) (string, *client.Client, error) {
	b, err := io.ReadAll(io.LimitReader(f.IO.In, 64<<10))
	if err != nil {
		return "", nil, err
	}
	token := strings.TrimSpace(string(b))
	if err := tokenProblem(token); err != nil {
		return "", nil, err
	}
	cl, err := checkedClient(ctx, f, cfg, base, token)
	if err != nil {
		return "", nil, err
	}
	return token, cl, nil
}

// askToken asks on the terminal until the API accepts a token: an empty
// answer, one with spaces or one the API rejects is asked for again.
func askToken(ctx context.Context, f *cli.Factory, cfg *settings.Config, base string) (string, *client.Client, error) {
	w := f.IO.Err
	var last error
	for range loginAttempts {
		token, err := f.Ask().Password(fmt.Sprintf("API token for %s (input hidden; create one under Settings > API): ", base))
		if err != nil && token == "" {
			if last != nil {
				return "", nil, last
			}
			return "", nil, cli.UsageErrorf("no token given: nothing to store")
		}
		if last = tokenProblem(token); last != nil {
			fmt.Fprintf(w, "%v\n", last)
			continue
		}
		cl, err := checkedClient(ctx, f, cfg, base, token)
		var ae *cli.AuthError
		if errors.As(err, &ae) {
			last = err
			fmt.Fprintf(w, "The token was rejected by %s (HTTP 401): check it and paste it again.\n", base)
			continue
		}
		return token, cl, err
	}
	return "", nil, last
}

func newAuthStatusCmd(f *cli.Factory) *cobra.Command {
	var all bool
	c := &cobra.Command{
		Use:   "status",
		Short: "Show the profile, base URL, token source and whether the token works",
		Long: `Show which profile, base URL and token orgctl would use, and check the token
with one request (2 points). Only the token's last 4 characters are shown.
Then, as login does, name the user the token belongs to when the token may
list access tokens and users (GET /access_tokens and GET /users, one request
each). Then say the instance's API version, as its own description gives it:
from the cache when this login read the description within a day, else with
one more request (GET /api/v2/spec, 10 points); the line says which. --all
checks every profile in the config file (one request each), the current one
marked with *.

Exit status: 0 when the token is valid (with --all: every token), 4 when one
is missing or rejected, 2 when a profile's settings cannot be used (no base
URL, an invalid value), as for any command.`,
		Example: "  orgctl auth status\n  orgctl auth status --profile staging -o json\n  orgctl auth status --all",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			cfg, p, err := cli.PrinterFor(f)
			if err != nil {
				return err
			}
			if !all {
				st, result := profileStatus(c.Context(), f, cfg, true)
				api := ""
				if st["valid"] == true {
					st["api_version"], api = apiVersion(c.Context(), f, cfg)
				}
				if p.Opts.Structured() {
					b, _ := json.Marshal(st)
					if err := p.Print(b, nil); err != nil {
						return err
					}
				} else if err := printStatus(f, st, api); err != nil {
					return err
				}
				return result
			}
			names := settings.ProfileNames()
			if len(names) == 0 {
				return &cli.NotFoundError{Err: fmt.Errorf("no profiles in %s: log in with `orgctl auth login`", settings.ConfigPath())}
			}
			current := cfg.Profile
			var rows []map[string]any
			var firstErr error
			for _, name := range names {
				pcfg := cfg
				if name != cfg.Profile {
					if pcfg, err = f.Sources.LoadProfile(name, settings.LoadOptions{Families: f.Families}); err != nil {
						rows = append(rows, map[string]any{"profile": name, "current": false, "valid": false, "error": err.Error()})
						firstErr = cmp.Or(firstErr, err)
						continue
					}
				}
				st, result := profileStatus(c.Context(), f, pcfg, false)
				st["current"] = name == current
				if st["current"] == true {
					st["mark"] = "*"
				}
				rows = append(rows, st)
				if result != nil && firstErr == nil {
					firstErr = result
				}
			}
			b, _ := json.Marshal(rows)
			if p.Opts.Structured() {
				for _, r := range rows {
					delete(r, "mark")
				}
				b, _ = json.Marshal(rows)
			}
			if err := p.Print(b, []output.Column{{Header: " ", Field: "mark"}, {Header: "PROFILE", Field: "profile"},
				{Header: "BASE URL", Field: "base_url"}, {Header: "TOKEN", Field: "token_source"}, {Header: "VALID", Field: "valid"},
				{Header: "ERROR", Field: "error"}}); err != nil {
				return err
			}
			return firstErr
		},
	}
	c.Flags().BoolVar(&all, "all", false, "show every profile in the config file")
	return c
}

// apiVersion is the instance's API version (nil when it serves no
// description) and the line that says it and what knowing it cost.
func apiVersion(ctx context.Context, f *cli.Factory, cfg *settings.Config) (any, string) {
	r, err := f.Published(ctx)
	switch {
	case err != nil:
		return nil, "unknown: " + err.Error()
	case r.Desc == nil:
		return nil, cli.PublishedVersion(r, cfg)
	}
	return r.Desc.Version, cli.PublishedVersion(r, cfg)
}

// printStatus writes one profile's status as key: value lines; api is the
// API version line ("" for none).
func printStatus(f *cli.Factory, st map[string]any, api string) error {
	pairs := []cli.Pair{
		{Key: "profile", Value: fmt.Sprint(st["profile"])},
		{Key: "base url", Value: orDash(st["base_url"])},
		{Key: "token source", Value: orDash(st["token_source"])},
	}
	if st["token_last4"] != nil {
		pairs = append(pairs, cli.Pair{Key: "token", Value: fmt.Sprintf("…%s", st["token_last4"])})
	}
	if user, ok := st["user"].(string); ok {
		pairs = append(pairs, cli.Pair{Key: "user", Value: user})
	}
	if api != "" {
		pairs = append(pairs, cli.Pair{Key: "api version", Value: api})
	}
	pairs = append(pairs, cli.Pair{Key: "valid", Value: fmt.Sprint(st["valid"])})
	return cli.PrintPairs(f.IO, pairs)
}

// profileStatus checks one profile's token (one request) and describes
// it; withUser also names the token's user, as login does (two more).
// The error is the verdict: an AuthError (exit 4) for a missing or
// rejected token, a settings or base URL error (exit 2) as elsewhere.
func profileStatus(ctx context.Context, f *cli.Factory, cfg *settings.Config, withUser bool) (map[string]any, error) {
	st := map[string]any{
		"profile":      cfg.Profile,
		"base_url":     cfg.BaseURL,
		"token_source": nil,
		"token_last4":  nil,
		"valid":        false,
	}
	var result error
	t, err := cli.ResolveTarget(cfg, f.Tokens, f.Transport)
	if err != nil {
		st["error"] = err.Error()
		return st, err
	}
	st["base_url"] = t.BaseURL
	st["token_source"] = t.Source
	st["token_last4"] = cli.Last4(t.Token)
	cl, err := cli.TargetClient(f, cfg, t)
	if err != nil {
		st["error"] = err.Error()
		return st, err
	}
	valid, verr := cli.CheckToken(ctx, cl)
	st["valid"] = valid
	if valid && withUser {
		if who := tokenOwner(ctx, cl, t.Token); who != "" {
			st["user"] = who
		}
	}
	switch {
	case verr != nil:
		st["error"] = verr.Error()
		result = verr
	case !valid:
		st["error"] = "token rejected (HTTP 401)"
		result = &cli.AuthError{Err: fmt.Errorf("token for profile %q rejected (HTTP 401): %s", cfg.Profile, cli.RejectedTokenAdvice(cfg.Profile))}
	}
	return st, result
}

func newAuthSwitchCmd(f *cli.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "switch PROFILE",
		Short: "Make another profile the current one",
		Long: `Make PROFILE the one commands use when neither --profile nor ORGCTL_PROFILE
names one (the config file's top-level profile key). Nothing is sent.`,
		Example: "  orgctl auth switch staging\n  orgctl auth status --all",
		Args:    cli.ExactArgs(1, "PROFILE"),
		ValidArgsFunction: func(_ *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var out []string
			for _, n := range settings.ProfileNames() {
				if strings.HasPrefix(n, toComplete) {
					out = append(out, n)
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			name := args[0]
			if err := settings.SwitchProfile(name); err != nil {
				return unknownSwitch(name, err)
			}
			f.IO.Success("Switched to profile %s (%s)", name, orDash(settings.ProfileSetting(name, "base_url")))
			if env := os.Getenv("ORGCTL_PROFILE"); env != "" && env != name {
				f.IO.Warn("ORGCTL_PROFILE=%s is set in this environment and takes precedence", env)
			}
			return nil
		},
	}
}

// unknownSwitch rewrites the config's "unknown profile" for auth switch:
// the suggestion is the switch that works, not a --profile flag.
func unknownSwitch(name string, err error) error {
	var up *settings.UnknownProfileError
	if !errors.As(err, &up) {
		return err
	}
	names := up.Names
	msg := fmt.Sprintf("unknown profile %q", name)
	if near := suggest.Nearest(name, names, suggest.Typo(len(name))); near != "" {
		msg += fmt.Sprintf(": did you mean `orgctl auth switch %s`?", near)
	}
	if len(names) == 0 {
		msg += fmt.Sprintf("\nNo profiles are defined yet (%s): create one with `orgctl auth login --profile %s`.", settings.ConfigPath(), name)
	} else {
		msg += fmt.Sprintf("\nProfiles in %s: %s.\nSwitch to one of them, or create this one with `orgctl auth login --profile %s`.",
			settings.ConfigPath(), strings.Join(names, ", "), name)
	}
	return &settings.Error{Err: errors.New(msg)}
}

func orDash(v any) string {
	if s, ok := v.(string); ok && s != "" {
		return s
	}
	return "-"
}

func newAuthLogoutCmd(f *cli.Factory) *cobra.Command {
	var forget bool
	c := &cobra.Command{
		Use:   "logout",
		Short: "Remove a profile's stored token",
		Long: `Delete the profile's stored token (keyring or file). The profile's settings
(its base URL and the rest) stay in the config file, so that logging in again
needs only a token; --forget removes them too. Nothing is sent.`,
		Example: "  orgctl auth logout\n  orgctl auth logout --profile staging\n  orgctl auth logout --profile old --forget",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			f.NewProfile = true // logout says itself when there is nothing to log out of
			cfg, err := f.Config()
			if err != nil {
				return err
			}
			store := cfg.TokenStore
			if !cfg.HasProfile(cfg.Profile) && store == "" {
				return &cli.NotFoundError{Err: fmt.Errorf("no profile %q: nothing to log out of", cfg.Profile)}
			}
			var kerr error
			if store != cli.SourceFile {
				kerr = f.Tokens.Keyring.Delete(cfg.Profile)
			}
			if err := f.Tokens.File.Delete(cfg.Profile); err != nil {
				return err
			}
			if kerr != nil {
				return fmt.Errorf("could not remove the token from the keyring (the profile is kept): %w", kerr)
			}
			if forget {
				if err := settings.DeleteProfile(cfg.Profile); err != nil {
					return err
				}
				f.IO.Notice("Logged out of profile %q and removed its settings.", cfg.Profile)
			} else if base := settings.ProfileSetting(cfg.Profile, "base_url"); base != "" {
				f.IO.Notice("Logged out of profile %q; its settings stay (%s): `orgctl auth login --profile %s` logs in again.", cfg.Profile, base, cfg.Profile)
			} else {
				f.IO.Notice("Logged out of profile %q.", cfg.Profile)
			}
			if os.Getenv("ORGCTL_TOKEN") != "" {
				f.IO.Warn("ORGCTL_TOKEN is still set in this environment")
			}
			return nil
		},
	}
	c.Flags().BoolVar(&forget, "forget", false, "also remove the profile's settings from the config file")
	return c
}

func newAuthTokenCmd(f *cli.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "token",
		Short: "Print the profile's token to stdout, for piping into other tools",
		Example: `  curl -H "Authorization: Bearer $(orgctl auth token)" https://acme.example.com/api/v2/users
  orgctl auth token --profile staging | other-tool --token-stdin`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			cfg, err := f.Config()
			if err != nil {
				return err
			}
			tok, _, err := cli.ResolveToken(cfg, f.Tokens)
			if err != nil {
				return err
			}
			fmt.Fprintln(f.IO.Out, tok)
			return nil
		},
	}
}
