package families

import (
	"encoding/json"
	"fmt"
	"github.com/orgctl/orgctl/cmd/cli/usage"
	"net/http"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/cmd/engine"
	"github.com/orgctl/orgctl/cmd/engine/opdef"
)

const codeExecutorPath = "/organization/code_executor_settings"

var codeExecutorFields = []opdef.Field{
	{Flag: "memory-limit", Key: "memoryLimitMbs", Type: opdef.TInt, Optional: true, Usage: "memory limit per process in `MB` (256-32768)"},
	{Flag: "max-processes", Key: "maxConcurrentProcesses", Type: opdef.TInt, Optional: true, Usage: "most processes at once (1-500)"},
	{Flag: "circuit-breaker", Key: "circuitBreakerEnabled", Type: opdef.TBool, Optional: true, Usage: "stop sending work to a failing executor"},
}

// codeExecutorGroup is "org code-executor get|set": the org-wide Code
// Executor limits of API 4.0.
func codeExecutorGroup() engine.Group {
	return engine.Group{
		Name:    "code-executor",
		Short:   "Show and change the organization's Code Executor limits",
		Long:    "Limits of the Code Executor that runs workflows' and apps' code (API 4.0, Retool 4.0; admins only).",
		Example: "  orgctl org code-executor get\n  orgctl org code-executor set --memory-limit 4096",
		Ops: []opdef.Op{
			{Use: "get", Method: http.MethodGet, Path: codeExecutorPath,
				Help:  opdef.Help{Short: "Show the Code Executor limits", Example: "  orgctl org code-executor get\n  orgctl org code-executor get -o json"},
				Hooks: opdef.Hooks{View: SettingsPrint}},
			{Use: "set", Method: http.MethodPut, Path: codeExecutorPath, Body: true,
				Help: opdef.Help{Short: "Change the Code Executor limits", Done: "Set the organization's Code Executor limits",
					Long: `The API replaces all three settings; orgctl reads the current ones first (one
extra GET) when flags leave some out, so that those keep their value.`,
					Example: "  orgctl org code-executor set --memory-limit 4096\n  orgctl org code-executor set --memory-limit 2048 --max-processes 50 --circuit-breaker"},
				Fields: codeExecutorFields,
				Hooks:  opdef.Hooks{Shape: fillCodeExecutor, Merge: mergeCodeExecutor, View: SettingsPrint}},
		},
	}
}

// fillCodeExecutor reads the current limits when flags leave some out,
// since the API replaces all three (PUT).
func fillCodeExecutor(c *opdef.Call) error {
	if len(c.BodyObject()) == 0 {
		return cli.UsageErrorf("%s: %w: pass --memory-limit, --max-processes or --circuit-breaker", c.Command, usage.ErrNothingToChange)
	}
	for _, fd := range codeExecutorFields {
		if _, ok := c.Req.Body[fd.Key]; !ok {
			c.Reads = []client.Request{opdef.RequestTo(http.MethodGet, codeExecutorPath, nil)}
			return nil
		}
	}
	return nil
}

// mergeCodeExecutor keeps the current value of every limit not given.
func mergeCodeExecutor(c *opdef.Call, current []json.RawMessage) error {
	var cur map[string]any
	if err := json.Unmarshal(current[0], &cur); err != nil {
		return fmt.Errorf("unexpected answer reading the Code Executor settings: %w", err)
	}
	for _, fd := range codeExecutorFields {
		if _, set := c.Req.Body[fd.Key]; !set {
			c.Req.Body[fd.Key] = cur[fd.Key]
		}
	}
	return nil
}
