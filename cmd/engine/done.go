package engine

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/orgctl/orgctl/client/kinds"
)

// pastTense is how a write command's verb reads once it is done.
func pastTense(verb string) (string, bool) {
	switch verb {
	case "create":
		return "Created", true
	case "update":
		return "Updated", true
	case "delete":
		return "Deleted", true
	case "add":
		return "Added", true
	case "remove":
		return "Removed", true
	case "set":
		return "Set", true
	case "grant":
		return "Granted", true
	case "revoke":
		return "Revoked", true
	case "clone":
		return "Cloned", true
	case "move":
		return "Moved", true
	case "rename":
		return "Renamed", true
	case "copy":
		return "Copied", true
	case "approve":
		return "Approved", true
	case "deny":
		return "Denied", true
	case "submit":
		return "Submitted", true
	case "cancel":
		return "Cancelled", true
	case "reassign":
		return "Reassigned", true
	case "deploy":
		return "Deployed", true
	case "release":
		return "Released", true
	case "enable":
		return "Enabled", true
	case "disable":
		return "Disabled", true
	case "replace":
		return "Replaced", true
	case "upload":
		return "Uploaded", true
	}
	return "", false
}

// noun is what a family's objects are called where its name is not simply
// their plural.
func noun(group string) (string, bool) {
	switch group {
	case "config-vars":
		return "configuration variable", true
	case "resource-configs":
		return "resource configuration", true
	case "spaces":
		return "Space", true
	case "sso":
		return "SSO configuration", true
	case "observability":
		return "observability configuration", true
	case "org":
		return "organization settings", true
	case "ai-settings":
		return "AI settings", true
	case "config":
		return "source control configuration", true
	}
	return "", false
}

// singular is what one object of a group is called: "user-attributes" -> "user attribute".
func singular(group string) string {
	if n, ok := noun(group); ok {
		return n
	}
	return kinds.Singular(group)
}

// plural is how an empty list names what it did not find: "no users match".
func plural(group string) string {
	if n, ok := noun(group); ok && !strings.HasSuffix(n, "s") {
		return n + "s"
	}
	return strings.ReplaceAll(group, "-", " ")
}

// nameKeys are the answer fields that name an object, best first.
var nameKeys = []string{"email", "name", "display_name", "label", "title", "invited_email", "requesting_email", "domain", "id"}

// doneLine is the one line a write command prints on stderr once it has
// succeeded: what it did to which object ("Disabled user ana@example.com").
func doneLine(c *Call, data json.RawMessage) string {
	c.Run.Answer = data
	if c.Op.Hooks.DoneLine != nil {
		if s := c.Op.Hooks.DoneLine(c); s != "" {
			return s
		}
	}
	what := objectName(c, data)
	if c.Op.Help.Done != "" {
		if strings.Contains(c.Op.Help.Done, "%[") {
			return fmt.Sprintf(c.Op.Help.Done, append(argObjects(c), argKeys(c)...)...)
		}
		if strings.Contains(c.Op.Help.Done, "%s") {
			return strings.TrimSpace(fmt.Sprintf(c.Op.Help.Done, what))
		}
		return c.Op.Help.Done
	}
	if c.Req.RawPath != "" || c.Op.Use == "" {
		return fmt.Sprintf("%s %s", c.Op.Method, c.Request().Path) // orgctl api: the request is the object
	}
	past, ok := pastTense(c.Op.Name())
	if !ok {
		past = "Done:"
		return strings.TrimSpace(past + " " + c.Command + " " + what)
	}
	return strings.TrimSpace(past + " " + c.Op.Noun + " " + what)
}

// argObjects are the call's positional arguments as a message shows them:
// the name looked up where there was one.
func argObjects(c *Call) []any {
	objs := make([]any, 0, len(c.Op.Args.Params))
	for i, a := range c.Op.Args.Params {
		if l, ok := c.Labels.Args[i]; ok {
			objs = append(objs, l)
		} else {
			objs = append(objs, c.Req.Params[a])
		}
	}
	return objs
}

// argKeys are the call's positional arguments by their natural key alone
// (ana@example.com, support) where one was found, else as given.
func argKeys(c *Call) []any {
	keys := make([]any, 0, len(c.Op.Args.Params))
	for i, a := range c.Op.Args.Params {
		if k, ok := c.Labels.Keys[i]; ok {
			keys = append(keys, k)
		} else {
			keys = append(keys, c.Req.Params[a])
		}
	}
	return keys
}

// objectName names the object a call acted on: the name the user gave
// (looked up), else the name in the answer, else the arguments as given.
func objectName(c *Call, data json.RawMessage) string {
	var parts []string
	for i, a := range c.Op.Args.Params {
		if l, ok := c.Labels.Args[i]; ok {
			parts = append(parts, l)
		} else if v := c.Req.Params[a]; v != "" {
			parts = append(parts, v)
		}
	}
	if len(c.Labels.Args) > 0 {
		return strings.Join(parts, " ")
	}
	var obj map[string]any
	if json.Unmarshal(data, &obj) == nil {
		for _, k := range nameKeys {
			switch v := obj[k].(type) {
			case string:
				if v != "" {
					return v
				}
			case float64:
				return fmt.Sprint(v)
			}
		}
	}
	return strings.Join(parts, " ")
}

// isEmptyList reports whether an answer's data is an empty array.
func isEmptyList(data json.RawMessage) bool {
	return strings.TrimSpace(string(data)) == "[]"
}
