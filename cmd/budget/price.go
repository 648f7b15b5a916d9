package budget

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/ratebudget"
)

func newCmdPrice(f *cli.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "price [LOG]",
		Short: "Price the requests of an orgctl --debug log by this budget's price list",
		Long: `Reads the --debug log of an orgctl run (from LOG, or standard input) and prices
every request it sent, each "> METHOD URL" line, as orgctl's budget does:
the service's price list with budget.costs applied. Prints requests and points
by family, and on stderr the total and the least time the budget needs for it
from an idle window. Nothing is sent and no login is needed.`,
		Example: `  orgctl --debug groups members add --from members.csv 2>run.log
  orgctl budget price < run.log
  orgctl budget price -o json --jq '"\(.requests) \(.points)"' < run.log`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			cfg, p, err := cli.PrinterFor(f)
			if err != nil {
				return err
			}
			in, name := io.Reader(f.IO.In), "standard input"
			if len(args) == 1 && args[0] != "-" {
				fh, err := os.Open(args[0])
				if err != nil {
					return cli.UsageErrorf("budget price: %v", err)
				}
				defer fh.Close()
				in, name = fh, args[0]
			}
			bill, err := priceLog(in, cfg.Budget)
			if err != nil {
				return fmt.Errorf("budget price: reading %s: %w", name, err)
			}
			if p.Opts.Structured() {
				b, err := json.Marshal(bill)
				if err != nil {
					return err
				}
				return p.Print(b, nil)
			}
			if !f.Quiet() {
				f.IO.Notice("total: %s", cfg.Budget.CostSentence(bill.Requests, bill.Points, nil))
			}
			rows, err := json.Marshal(bill.Families)
			if err != nil {
				return err
			}
			return p.Print(rows, []output.Column{{Header: "FAMILY", Field: "family"},
				{Header: "REQUESTS", Field: "requests"}, {Header: "POINTS", Field: "points"}})
		},
	}
}

// bill is what a log's requests cost: in all, and by family (most points
// first).
type bill struct {
	Requests     int          `json:"requests"`
	Points       int          `json:"points"`
	LeastSeconds float64      `json:"least_seconds"`
	Families     []familyBill `json:"families"`
}

type familyBill struct {
	Family   string `json:"family"`
	Requests int    `json:"requests"`
	Points   int    `json:"points"`
}

// sentMethod tells the methods of the "> METHOD URL" lines the client's
// debug log writes for each request it sends.
func sentMethod(m string) bool {
	switch m {
	case "GET", "POST", "PUT", "PATCH", "DELETE":
		return true
	}
	return false
}

// priceLog prices each request line of a --debug log by c.
func priceLog(r io.Reader, c ratebudget.Config) (bill, error) {
	var b bill
	by := map[string]*familyBill{}
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadString('\n')
		if path, ok := sentPath(line); ok {
			fam := ratebudget.Family(path)
			fb := by[fam]
			if fb == nil {
				fb = &familyBill{Family: fam}
				by[fam] = fb
			}
			cost := c.Cost(path)
			fb.Requests++
			fb.Points += cost
			b.Requests++
			b.Points += cost
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return bill{}, err
		}
	}
	b.LeastSeconds = c.Idle().TimeFor(b.Points).Seconds()
	b.Families = make([]familyBill, 0, len(by))
	for _, fb := range by {
		b.Families = append(b.Families, *fb)
	}
	sort.Slice(b.Families, func(i, j int) bool {
		if b.Families[i].Points != b.Families[j].Points {
			return b.Families[i].Points > b.Families[j].Points
		}
		return b.Families[i].Family < b.Families[j].Family
	})
	return b, nil
}

// sentPath is the API path of a "> METHOD URL ..." line: what follows
// /api/v2 in the URL (a Space's base URL has a path before it), or the
// URL's whole path.
func sentPath(line string) (string, bool) {
	rest, ok := strings.CutPrefix(line, "> ")
	if !ok {
		return "", false
	}
	method, rest, _ := strings.Cut(rest, " ")
	u, _, _ := strings.Cut(strings.TrimRight(rest, "\r\n"), " ")
	if !sentMethod(method) || u == "" {
		return "", false
	}
	if i := strings.Index(u, "/api/v2/"); i >= 0 {
		return u[i+len("/api/v2"):], true
	}
	return u, true
}
