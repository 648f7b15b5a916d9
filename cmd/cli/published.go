package cli

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v3"

	"github.com/orgctl/orgctl/client/spec"
)

// Description is what the instance's own API description (GET
// /api/v2/spec) says, as far as orgctl's checks before sending need it:
// its version, its operations and their query parameters.
type Description struct {
	Version string
	// ops are the query parameters of each operation, by spec.Key.
	ops map[string]map[string]bool
}

// Has reports whether the description has the operation.
func (d *Description) Has(method, path string) bool {
	_, ok := d.ops[spec.Key(method, path)]
	return ok
}

// HasQuery reports whether the description's operation takes the query
// parameter.
func (d *Description) HasQuery(method, path, param string) bool {
	return d.ops[spec.Key(method, path)][param]
}

// describedRun holds the description read in this run.
type describedRun struct {
	done bool
	desc *Description
	err  error
}

// Described is the description the instance serves, read once per run;
// nil (and no error) when it serves none, so that orgctl then works as
// it does without one. Only a check that needs it asks: a command whose
// operation every known version has never reads it.
func (f *Factory) Described(ctx context.Context) (*Description, error) {
	if f.described == nil {
		f.described = &describedRun{}
	}
	r := f.described
	if !r.done {
		r.desc, r.err = f.readDescription(ctx)
		r.done = true
	}
	return r.desc, r.err
}

func (f *Factory) readDescription(ctx context.Context) (*Description, error) {
	conn, err := f.Connection()
	if err != nil {
		return nil, err
	}
	url := strings.TrimRight(conn.Target.BaseURL, "/") + "/api/v2/spec"
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", "orgctl/"+f.Version())
	rt := conn.Target.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	hc := &http.Client{Transport: rt, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	if cfg := f.LoadedConfig(); cfg != nil && cfg.Debug {
		fmt.Fprintf(f.IO.Err, "> GET %s (the instance's API description)\n", url)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("reading the instance's API description: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return nil, nil // serves none: used as without one
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return nil, fmt.Errorf("reading the instance's API description: %w", err)
	}
	return ParseDescription(body)
}

// ParseDescription reads an OpenAPI description, JSON or YAML: its version
// and, per operation, the query parameters (declared on the operation or
// its path, inline or as a $ref to components.parameters). A body with no
// version and no paths is no description (nil).
func ParseDescription(b []byte) (*Description, error) {
	type param struct {
		Name string `yaml:"name"`
		In   string `yaml:"in"`
		Ref  string `yaml:"$ref"`
	}
	var doc struct {
		Info struct {
			Version string `yaml:"version"`
		} `yaml:"info"`
		Paths      map[string]map[string]yaml.Node `yaml:"paths"`
		Components struct {
			Parameters map[string]param `yaml:"parameters"`
		} `yaml:"components"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("the instance's API description is unreadable: %w", err)
	}
	if doc.Info.Version == "" && len(doc.Paths) == 0 {
		return nil, nil
	}
	queries := func(n yaml.Node) map[string]bool {
		var ps []param
		if n.Decode(&ps) != nil {
			return nil
		}
		out := map[string]bool{}
		for _, p := range ps {
			if p.Ref != "" {
				p = doc.Components.Parameters[p.Ref[strings.LastIndex(p.Ref, "/")+1:]]
			}
			if p.In == "query" {
				out[p.Name] = true
			}
		}
		return out
	}
	d := &Description{Version: doc.Info.Version, ops: map[string]map[string]bool{}}
	for path, item := range doc.Paths {
		shared := queries(item["parameters"])
		for method, n := range item {
			switch m := strings.ToUpper(method); m {
			case "GET", "POST", "PUT", "PATCH", "DELETE":
				var op struct {
					Parameters yaml.Node `yaml:"parameters"`
				}
				_ = n.Decode(&op)
				q := queries(op.Parameters)
				if q == nil {
					q = map[string]bool{}
				}
				for k := range shared {
					q[k] = true
				}
				d.ops[spec.Key(m, path)] = q
			}
		}
	}
	return d, nil
}

// VersionBefore reports whether API version a is older than b ("2.12.0"
// before "4.0.0"), comparing numbers part by part; text that is no
// number compares as 0.
func VersionBefore(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(pa), len(pb)); i++ {
		var x, y int
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			return x < y
		}
	}
	return false
}
