package access

import (
	"context"
	"net/http"

	"github.com/orgctl/orgctl/client/spec"
	"github.com/orgctl/orgctl/cmd/cli"
)

// endsSessions says whether an offboarding ends the leavers' sessions: only
// where the instance's own API description has the logout endpoint (API
// 4.0). Elsewhere it says once why not: their sessions then last until
// they expire, though the disabled users cannot sign in again. The
// description is read on the job's connection, so that its cost, when it
// is not in the cache, is counted with the job's other reads.
func endsSessions(ctx context.Context, f *cli.Factory, conn *cli.Connection) bool {
	const path = "/users/{userId}/logout"
	pub, err := cli.ReadPublished(ctx, conn.Client, conn.Target)
	desc := pub.Desc
	since := "4.0.0"
	if op := spec.Find(http.MethodPost, path); op != nil && op.Since != "" {
		since = op.Since
	}
	switch {
	case err != nil:
		f.IO.Warn("%v: the users' open sessions are not ended", err)
		return false
	case desc == nil:
		f.IO.Notice("this instance serves no API description, so orgctl cannot tell whether it has POST /api/v2/users/{userId}/logout (API %s): the users' open sessions are not ended", spec.VersionText(since))
		return false
	case !desc.Has(http.MethodPost, path):
		f.IO.Notice("this instance's API is %s, which has no POST /api/v2/users/{userId}/logout (added in API %s): the users' open sessions are not ended; disabled users cannot sign in again", spec.VersionText(desc.Version), spec.VersionText(since))
		return false
	}
	return true
}
