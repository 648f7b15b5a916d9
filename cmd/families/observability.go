package families

import (
	"encoding/json"
	"fmt"
	"github.com/orgctl/orgctl/cmd/cli/usage"
	"io"
	"net/http"
	"strings"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
)

var observabilityProviders = []string{"Sentry", "Datadog"}

// observabilityFields are create's (required) and update's: create
// enables a configuration unless --enabled=false says otherwise.
func observabilityFields(required bool) []opdef.Field {
	return []opdef.Field{
		{Flag: "provider", Key: "config.provider", Required: required, Enum: observabilityProviders, Usage: "where errors are sent"},
		{Flag: "dsn", Key: "config.dsn", Usage: "Sentry DSN"},
		{Flag: "ca-cert", In: opdef.InLocal, Type: opdef.TTexts, Usage: "Sentry: trust this CA certificate `FILE` (PEM; repeatable)"},
		{Flag: "api-key-file", In: opdef.InLocal, Usage: "Datadog: read the API key from `FILE` (- for stdin); keys never go in argv"},
		{Flag: "site", Key: "config.site", Enum: []string{"US1", "US3", "US5", "EU1", "US1-FED", "AP1"}, Usage: "Datadog site"},
		{Flag: "enabled", Key: "enabled", Type: opdef.TBool, Optional: required, Usage: "send events (--enabled=false to pause)"},
	}
}

// shapeObservability reads the secret and certificate files and checks that
// the flags fit the provider, since the API's oneOf would only say "invalid".
func shapeObservability(create bool) func(c *opdef.Call) error {
	return func(c *opdef.Call) error {
		cfg, _ := c.BodyObject()["config"].(map[string]any)
		if src := c.LocalString("api-key-file"); src != "" {
			key, err := readSecretFile(c, src)
			if err != nil {
				return cli.UsageErrorf("--api-key-file: %v", err)
			}
			if cfg == nil {
				cfg = map[string]any{}
			}
			cfg["api_key"] = key
		}
		if files := c.LocalStrings("ca-cert"); len(files) > 0 {
			var certs []any
			for _, p := range files {
				r, err := c.OpenSource(p)
				if err != nil {
					return cli.UsageErrorf("--ca-cert: %v", err)
				}
				b, err := opdef.ReadLimited(r, "--ca-cert "+p)
				r.Close()
				if err != nil {
					return cli.UsageErrorf("--ca-cert: %v", err)
				}
				certs = append(certs, string(b))
			}
			if cfg == nil {
				cfg = map[string]any{}
			}
			cfg["ca_certs"] = certs
		}
		if cfg != nil {
			c.Req.Body["config"] = cfg
			switch cfg["provider"] {
			case "Sentry":
				if cfg["dsn"] == nil {
					return cli.UsageErrorf("--provider Sentry needs --dsn")
				}
				if cfg["api_key"] != nil || cfg["site"] != nil {
					return cli.UsageErrorf("--api-key-file and --site are for Datadog, not Sentry")
				}
			case "Datadog":
				if cfg["api_key"] == nil || cfg["site"] == nil {
					return cli.UsageErrorf("--provider Datadog needs --api-key-file and --site")
				}
				if cfg["dsn"] != nil || cfg["ca_certs"] != nil {
					return cli.UsageErrorf("--dsn and --ca-cert are for Sentry, not Datadog")
				}
			case nil:
				return cli.UsageErrorf("provider settings need --provider (%s)", strings.Join(observabilityProviders, " or "))
			}
		}
		if _, ok := c.Req.Body["enabled"]; create && !ok {
			c.Req.Body["enabled"] = true
		}
		if !create && len(c.Req.Body) == 0 {
			return cli.UsageErrorf("%s: %w: pass provider flags, --enabled or --body", c.Command, usage.ErrNothingToChange)
		}
		return nil
	}
}

// readSecretFile reads one trimmed secret from a file or stdin.
func readSecretFile(c *opdef.Call, src string) (string, error) {
	r, err := c.OpenSource(src)
	if err != nil {
		return "", err
	}
	defer r.Close()
	b, err := io.ReadAll(io.LimitReader(r, 64<<10))
	if err != nil {
		return "", err
	}
	s := strings.TrimSpace(string(b))
	if s == "" {
		return "", fmt.Errorf("%s is empty", src)
	}
	return s, nil
}

func observabilityGroup() engine.Group {
	return engine.Group{
		Long: `Observability provider configurations: where errors from apps and workflows are
reported. One configuration per provider; creating a second one fails.`,
		Example: `  orgctl observability list
  orgctl observability create --provider Sentry --dsn https://key@o1.ingest.sentry.io/42
  orgctl observability create --provider Datadog --site EU1 --api-key-file dd.key
  orgctl observability test Sentry`,
		Columns: []output.Column{
			{Header: "ID", Field: "id"},
			{Header: "PROVIDER", Field: "config.provider"},
			{Header: "ENABLED", Field: "enabled"},
			{Header: "TARGET", Value: func(r map[string]any) string {
				if s, ok := output.Lookup(r, "config.site").(string); ok {
					return s
				}
				s, _ := output.Lookup(r, "config.dsn").(string)
				return s
			}},
		},
		Ops: []opdef.Op{
			{Use: "list", Method: http.MethodGet, Path: "/observability/config",
				Help: opdef.Help{
					Short:   "List observability configurations",
					Example: "  orgctl observability list\n  orgctl observability list -o json",
				},
			},
			{Use: "create", Method: http.MethodPost, Path: "/observability/config", Body: true,
				Help: opdef.Help{
					Short: "Configure a provider",
					Long:  "Enabled unless --enabled=false. Fails when the provider is already configured.",
					Example: `  orgctl observability create --provider Sentry --dsn https://key@o1.ingest.sentry.io/42 --ca-cert corp-ca.pem
  pass show datadog | orgctl observability create --provider Datadog --site US5 --api-key-file -`,
				},
				Fields: observabilityFields(true),

				Hooks: opdef.Hooks{Shape: shapeObservability(true)},
			},
			{Use: "update CONFIG_ID", Method: http.MethodPut, Path: "/observability/config/{configId}", Body: true,
				Help: opdef.Help{
					Short: "Change a provider configuration",
					Long:  "Provider settings are replaced as a whole: with any of them, pass --provider and all that provider needs.",
					Example: `  orgctl observability update CONFIG_ID --enabled=false
  orgctl observability update CONFIG_ID --provider Datadog --site EU1 --api-key-file new.key`,
				},
				Args:   opdef.Args{Params: []string{"configId"}},
				Fields: observabilityFields(false),

				Hooks: opdef.Hooks{Shape: shapeObservability(false)},
			},
			{Use: "delete CONFIG_ID", Method: http.MethodDelete, Path: "/observability/config/{configId}",
				Help: opdef.Help{
					Short:   "Remove a provider configuration",
					Example: "  orgctl observability delete CONFIG_ID --yes",
				},
				Args: opdef.Args{Params: []string{"configId"}},
				Confirm: &opdef.Confirm{
					Question: "Remove observability configuration %s? App errors stop reaching the provider until 'orgctl observability create' sets it up again.",
				},
			},
			{Use: "test PROVIDER", Method: http.MethodPost, Path: "/observability/provider/{provider}/test",
				Help: opdef.Help{
					Short:   "Send a test error event to Sentry or Datadog",
					Long:    "Exits 1 with the provider's message when the event could not be delivered.",
					Example: "  orgctl observability test Sentry\n  orgctl observability test Datadog -o json",
					Done:    "Sent a test event to %s",
				},
				Args: opdef.Args{Params: []string{"provider"}},
				Hooks: opdef.Hooks{
					Shape: func(c *opdef.Call) error {
						// The spec's enum is checked before (in any case) and after this.
						for _, p := range observabilityProviders {
							if strings.EqualFold(p, c.Req.Params["provider"]) {
								c.Req.Params["provider"] = p
							}
						}
						return nil
					},
					View: func(p *output.Printer, c *opdef.Call, data json.RawMessage) error {
						var r struct {
							Success *bool  `json:"success"`
							Message string `json:"message"`
						}
						_ = json.Unmarshal(data, &r)
						if p.Opts.Structured() {
							if err := p.Print(data, nil); err != nil {
								return err
							}
						} else if r.Success == nil || *r.Success {
							fmt.Fprintf(p.IO.Out, "test event sent to %s\n", c.Req.Params["provider"])
						}
						if r.Success != nil && !*r.Success {
							return &cli.ExitError{Code: 1, Err: fmt.Errorf("%s did not accept the test event: %s", c.Req.Params["provider"], r.Message)}
						}
						return nil
					},
				},
			},
		},
	}
}
