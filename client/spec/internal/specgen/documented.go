package main

import (
	"fmt"
	"strings"
)

// createApp is POST /apps, which the service serves and documents (../shared/seed: "POST
// /api/v2/apps exists (create an app); its payload is not published") but neither description
// has. Its body is what the documentation and the sandbox agree on: a name, and optionally a
// description and the folder to put it in; it answers with the app, as GET /apps/{appId} does.
const createApp = `{"type":"object","properties":{"name":{"type":"string","minLength":1},"description":{"type":"string"},` +
	`"folder_id":{"type":"string","nullable":true,"pattern":"^(app|workflow|resource|agent|library)_([0-9]\\d*)$"}},"required":["name"]}`

// documented are the operations the descriptions lack, after the described ones.
func documented(entries []entry) ([]entry, error) {
	var get *entry
	for i := range entries {
		if entries[i].rules.Key == "GET /apps/{}" {
			get = &entries[i]
		}
	}
	if get == nil {
		return entries, nil // a description with no apps (the generator's own tests)
	}
	req, err := decode(strings.NewReader(createApp))
	if err != nil {
		return nil, fmt.Errorf("POST /apps body: %w", err)
	}
	op := schema{"requestBody": schema{"content": schema{"application/json": schema{"schema": plain(req)}}}}
	e := entry{method: "post", path: "/apps", tag: get.tag, summary: "Create an app", scopes: []string{"apps:write"},
		scopeName: "Apps > Write", status: 200, req: req, resp: get.resp, badges: get.badges, unpublished: true,
		rules: rules("post", "/apps", op)}
	return append(entries, e), nil
}
