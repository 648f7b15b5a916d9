package families

import (
	"encoding/json"
	"net/http"

	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
	"github.com/orgctl/orgctl/output"
)

func infoGroup() engine.Group {
	return engine.Group{
		Example: "  orgctl info ip-allowlist",
		Ops: []opdef.Op{
			{Use: "ip-allowlist", Method: http.MethodGet, Path: "/info/ip_allowlist",
				Help: opdef.Help{
					Short: "Show the IP addresses to allow in data-source firewalls, by region",
					Long: `Retool Cloud connects to your data sources from these addresses. The API docs
name no scope: any valid token works.`,
					Example: "  orgctl info ip-allowlist\n  orgctl info ip-allowlist --jq '.ipAddresses[\"eu-central-1\"]'",
				},

				Hooks: opdef.Hooks{
					View: func(p *output.Printer, c *opdef.Call, data json.RawMessage) error {
						var d struct {
							IPs json.RawMessage `json:"ipAddresses"`
						}
						if p.Opts.Structured() || json.Unmarshal(data, &d) != nil || len(d.IPs) == 0 {
							return p.Print(data, nil)
						}
						rows, err := settingRows(d.IPs)
						if err != nil {
							return p.Print(data, nil)
						}
						b, _ := json.Marshal(rows)
						return p.Print(b, []output.Column{{Header: "REGION", Field: "setting"}, {Header: "ADDRESSES", Field: "value"}})
					},
				},
			},
		},
	}
}
