package resources

import (
	"context"
	"fmt"

	"github.com/orgctl/orgctl/client/spec"
	"github.com/orgctl/orgctl/cmd/cli"
)

// publishesQuery reports whether the instance's own API description has
// the query parameter on the operation, and when not, why, in words. An
// instance that ignores a parameter it lacks would answer every app for
// each resource, so without a description that has it, it is not sent.
func publishesQuery(ctx context.Context, f *cli.Factory, method, path, param string) (bool, string) {
	since := "4.0.0"
	if v := spec.Find(method, path).QueryValue(param); v != nil && v.Since != "" {
		since = v.Since
	}
	desc, err := f.Described(ctx)
	switch {
	case err != nil:
		return false, err.Error()
	case desc == nil:
		return false, fmt.Sprintf("this instance serves no API description, so orgctl cannot tell whether %s %s takes %s (API %s)", method, path, param, spec.VersionText(since))
	case !desc.HasQuery(method, path, param):
		return false, fmt.Sprintf("this instance's API is %s, whose %s %s takes no %s (added in API %s)", spec.VersionText(desc.Version), method, path, param, spec.VersionText(since))
	}
	return true, ""
}
