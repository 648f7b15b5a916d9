package engine

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/client/spec"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/ratebudget"
)

// Facts are what the help of every command that calls the API states, a
// declared operation and a workflow alike: the endpoint it is known by, the
// scopes a token needs for it, the price of that endpoint and, for a
// command that sends more than one request, which requests.
type Facts struct {
	Method, Path string
	// Scope is the scope of Method Path; Also are the other scopes a run
	// needs (the lists that name things, the other endpoints it calls).
	Scope string
	Also  []string
	// Requests says what one run sends and costs, when it is more than
	// one request of Method Path.
	Requests string
}

// Cost is the price of Method Path on the service's list (budget.costs may
// change what orgctl paces by; help states the list).
func (fa Facts) Cost() int { return ratebudget.ListPrice(fa.Path) }

// text is the block help ends its description with.
func (fa Facts) text() string {
	var b strings.Builder
	scope := fa.Scope
	op := spec.Find(fa.Method, fa.Path)
	if t := op.ScopeText(); t != "" {
		scope = t // as tokens spell it, with the console's label
	}
	fmt.Fprintf(&b, "API:    %s /api/v2%s", fa.Method, fa.Path)
	if plan := op.PlanText(); plan != "" {
		line := plan
		if plan == "Business" {
			line = "Business and Enterprise"
		}
		if notes := op.Notes(); len(notes) > 0 {
			line += "; " + strings.ToLower(notes[0][:1]) + notes[0][1:]
		}
		fmt.Fprintf(&b, "\nPlan:   %s", line)
	}
	fmt.Fprintf(&b, "\nScope:  %s", scope)
	if len(fa.Also) > 0 {
		// one scope per item, never split, lines within 80 columns
		line := "\n        and"
		for i, s := range fa.Also {
			sep := ", "
			if i == 0 {
				sep = " "
			}
			if len(line)+len(sep)+len(s) > 80 && i > 0 {
				b.WriteString(line + ",")
				line, sep = "\n       ", " "
			}
			line += sep + s
		}
		b.WriteString(line)
	}
	fmt.Fprintf(&b, "\nCost:   %d points per request (budget: %d points per minute)", fa.Cost(), ratebudget.DefaultConfig().Points)
	if fa.Requests != "" {
		b.WriteString("\n\nRequests: ")
		b.WriteString(strings.TrimSpace(fa.Requests))
	}
	return b.String()
}

// annotate marks c with the facts that tests, completion and the docs read.
func (fa Facts) annotate(c *cobra.Command) {
	if c.Annotations == nil {
		c.Annotations = map[string]string{}
	}
	c.Annotations["scope"] = fa.Scope
	c.Annotations["method"] = fa.Method
	c.Annotations["path"] = fa.Path
	c.Annotations["cost"] = strconv.Itoa(fa.Cost())
}

// Describe gives a command that is not a declared operation the help and
// annotations a declared one has: its summary, its description, then the
// facts.
func Describe(c *cobra.Command, fa Facts) {
	long := strings.TrimSpace(c.Long)
	if !strings.HasPrefix(long, c.Short) {
		long = strings.TrimSpace(c.Short + "\n\n" + long)
	}
	c.Long = long + "\n\n" + fa.text()
	fa.annotate(c)
}

// Workflow builds a command that is not one API operation (a report, a
// local check, several requests as one job), with its own run function.
type Workflow func(f *cli.Factory) *cobra.Command

// Attach is the Workflow of a command built as NewCmdX(f, runF): with a
// nil runF, the command runs its own run function.
func Attach[O any](newCmd func(*cli.Factory, func(*O) error) *cobra.Command) Workflow {
	return func(f *cli.Factory) *cobra.Command { return newCmd(f, nil) }
}
