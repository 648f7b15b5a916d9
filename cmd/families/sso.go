package families

import (
	"net/http"
	"strings"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
)

var ssoTypes = []string{"google", "oidc", "google & oidc", "saml", "google & saml"}

func ssoGroup() engine.Group {
	f := func(flag, key, usage string) opdef.Field {
		return opdef.Field{Flag: flag, Key: "data." + key, Usage: usage}
	}
	b := func(flag, key, usage string) opdef.Field {
		return opdef.Field{Flag: flag, Key: "data." + key, Type: opdef.TBool, Usage: usage}
	}
	return engine.Group{
		Long: `Single sign-on for the organization or Space: Google, OIDC, SAML, or Google
combined with one of them. There is one configuration; set replaces it.

The configuration is rich and holds secrets, so the usual way is a JSON file:
  orgctl sso get -o json > sso.json     # edit, then
  orgctl sso set --body sso.json
--body takes either {"data": {...}} or the inner object; flags override its
fields. Passing secrets as flags leaves them in shell history; prefer --body.

Gotchas:
  - get and delete do not see SSO configured through environment variables of a
    self-hosted instance.
  - The API checks that every field required by --type is present (for oidc:
    client id and secret, scopes, auth and token URLs, JWT keys, and the
    jit/trigger/disable-password switches).
  - These endpoints need the "Spaces" scopes, not an SSO scope.`,
		Example: `  orgctl sso get
  orgctl sso set --type google --google-client-id ID --google-client-secret "$SECRET" --disable-email-password-login=false
  orgctl sso set --body sso.json
  orgctl sso delete --yes`,
		Ops: []opdef.Op{
			{Use: "get", Method: http.MethodGet, Path: "/sso/config",
				Help: opdef.Help{
					Short:   "Show the SSO configuration",
					Example: "  orgctl sso get\n  orgctl sso get -o json > sso.json",
				},
			},
			{Use: "set", Method: http.MethodPost, Path: "/sso/config", Body: true,
				Help: opdef.Help{
					Short: "Set (replace) the SSO configuration",
					Example: `  orgctl sso set --body sso.json
  orgctl sso set --body sso.json --jit-enabled=false
  orgctl sso set --type google --google-client-id 123.apps.googleusercontent.com --google-client-secret S --disable-email-password-login=false`,
					Done: "Set the SSO configuration",
				},
				Fields: []opdef.Field{
					{Flag: "type", Key: "data.config_type", Enum: ssoTypes, Usage: "kind of SSO"},
					f("google-client-id", "google_client_id", "Google OAuth client id"),
					f("google-client-secret", "google_client_secret", "Google OAuth client secret"),
					f("oidc-client-id", "oidc_client_id", "OIDC client id"),
					f("oidc-client-secret", "oidc_client_secret", "OIDC client secret"),
					f("oidc-scopes", "oidc_scopes", "OIDC scopes (space-separated)"),
					f("oidc-auth-url", "oidc_auth_url", "OIDC authorization URL"),
					f("oidc-token-url", "oidc_token_url", "OIDC token URL"),
					f("oidc-userinfo-url", "oidc_userinfo_url", "OIDC userinfo URL"),
					f("oidc-end-session-url", "oidc_end_session_url", "OIDC end-session URL, for 'users logout --sso' (API 4.0)"),
					f("oidc-audience", "oidc_audience", "OIDC audience"),
					f("jwt-email-key", "jwt_email_key", "JWT claim with the email"),
					f("jwt-first-name-key", "jwt_first_name_key", "JWT claim with the first name"),
					f("jwt-last-name-key", "jwt_last_name_key", "JWT claim with the last name"),
					f("jwt-roles-key", "jwt_roles_key", "JWT claim with the roles"),
					f("roles-mapping", "roles_mapping", "role mapping (e.g. devops -> admin)"),
					f("idp-metadata-xml", "idp_metadata_xml", "SAML IdP metadata XML"),
					f("saml-first-name-attribute", "saml_first_name_attribute", "SAML attribute with the first name"),
					f("saml-last-name-attribute", "saml_last_name_attribute", "SAML attribute with the last name"),
					f("saml-groups-attribute", "saml_groups_attribute", "SAML attribute with the groups"),
					b("saml-sync-group-claims", "saml_sync_group_claims", "sync groups from SAML claims"),
					f("restricted-domain", "restricted_domain", "only allow sign-ins from this email domain"),
					b("jit-enabled", "jit_enabled", "create users on first sign-in"),
					b("trigger-login-automatically", "trigger_login_automatically", "go straight to the IdP on the login page"),
					b("disable-email-password-login", "disable_email_password_login", "turn off email/password sign-in"),
				},

				Hooks: opdef.Hooks{
					Shape: func(c *opdef.Call) error {
						if c.Req.Body == nil {
							return cli.UsageErrorf("%s: pass --body FILE or --type with its fields", c.Command)
						}
						// A bare configuration object (as in the data of 'sso get') is wrapped.
						if _, ok := c.Req.Body["data"]; !ok || len(c.Req.Body) > 1 {
							data, _ := c.Req.Body["data"].(map[string]any)
							if data == nil {
								data = map[string]any{}
							}
							for k, v := range c.Req.Body {
								if k != "data" {
									if _, set := data[k]; !set {
										data[k] = v
									}
								}
							}
							c.Req.Body = map[string]any{"data": data}
						}
						data, _ := c.Req.Body["data"].(map[string]any)
						t, _ := data["config_type"].(string)
						for _, e := range ssoTypes {
							if t == e {
								return nil
							}
						}
						if t == "" {
							return cli.UsageErrorf("%s: the configuration has no config_type: pass --type {%s}", c.Command, strings.Join(ssoTypes, ", "))
						}
						return cli.UsageErrorf("invalid config_type %q: allowed values are %s", t, strings.Join(ssoTypes, ", "))
					},
				},
			},
			{Use: "delete", Method: http.MethodDelete, Path: "/sso/config",
				Help: opdef.Help{
					Short:   "Remove the SSO configuration",
					Long:    "Users then sign in with email and password (unless that is disabled too: check first).",
					Example: "  orgctl sso delete --yes",
					Done:    "Removed the SSO configuration",
				},
				Confirm: &opdef.Confirm{
					Question: "Remove the SSO configuration? Users sign in without SSO until 'orgctl sso set' configures it again.",
				},
			},
		},
	}
}
