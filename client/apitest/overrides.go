package apitest

// createAppOp is the unpublished POST /apps the seed names; its payload is ours: name, optional folder_id
// and description.
func createAppOp() specOp {
	return specOp{Method: "POST", Path: "/apps", Tag: "Apps", Scope: "apps:write", Status: 200,
		Req: `{"type":"object","properties":{"name":{"type":"string","minLength":1},"description":{"type":"string"},` +
			`"folder_id":{"type":"string","nullable":true,"pattern":"^(app|workflow|resource|agent|library)_([0-9]\\d*)$"}},"required":["name"]}`,
		Resp: specResp("GET", "/apps/{appId}")}
}

func specResp(method, path string) string {
	for _, op := range specOps {
		if op.Method == method && op.Path == path {
			return op.Resp
		}
	}
	return ""
}

// applyOverrides adjusts published schemas where the sandbox must accept more than is published.
func applyOverrides(rt *route) {
	if rt.key != "POST /resources" {
		return
	}
	// Creating mssql, vertica, bigid, ... resources needs the full type list; the T-SQL fields ride in
	// options, which the published options schemas would reject.
	if p := rt.req.Properties["type"]; p != nil {
		p.Enum = publishedResourceTypes
	}
	rt.req.Properties["options"] = &schema{Type: "object"}
}

// specOp is one published operation as gen_spec.py derived it.
type specOp struct {
	Method, Path, Tag, Scope string
	Status                   int
	Query                    []string
	Req                      string // request body schema subset (JSON)
	Resp                     string // example response body satisfying the published schema (JSON)
}
