package cli

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/published"
	"github.com/orgctl/orgctl/client/spec"
	"github.com/orgctl/orgctl/cmd/settings"
)

// publishedRun holds what this run learnt of the instance's description.
type publishedRun struct {
	r   published.Reading
	err error
}

// Published is what the instance says of itself in its own API
// description (GET /api/v2/spec), asked at most once per run: from the
// cache when this account read it within a day, else read once (see
// ReadPublished). Only a check that needs it asks: a command whose
// operation every known version has never reads it.
func (f *Factory) Published(ctx context.Context) (published.Reading, error) {
	if f.published == nil {
		r := &publishedRun{}
		conn, err := f.Connection()
		if err == nil {
			r.r, r.err = ReadPublished(ctx, conn.Client, conn.Target)
		} else {
			r.err = err
		}
		f.published = r
	}
	return f.published.r, f.published.err
}

// Described is the description the instance serves; nil (and no error)
// when it serves none, so that orgctl then works as it does without one.
func (f *Factory) Described(ctx context.Context) (*published.Description, error) {
	r, err := f.Published(ctx)
	return r.Desc, err
}

// publishedCache is where descriptions are kept between runs.
func publishedCache() *published.Cache {
	return &published.Cache{Dir: filepath.Join(settings.CacheDir(), "published")}
}

// CachedPublished is the target's cached reading, if it is young enough;
// nothing is sent.
func CachedPublished(t *Target) (published.Reading, bool) {
	return publishedCache().Cached(t.Account(), t.BaseURL)
}

// ReadPublished is the target's description: from the cache when its
// account read it within a day (within the hour, an answer that it serves
// none), else one GET /api/v2/spec through cl, priced and paced as any
// request is. A 404 (or 410) is cached as serving none; any other failure
// (a rejected token, a server error, no answer) is returned and not
// cached, as it says nothing of what the instance serves.
func ReadPublished(ctx context.Context, cl *client.Client, t *Target) (published.Reading, error) {
	return publishedCache().Get(ctx, t.Account(), t.BaseURL, fetchDescription(cl))
}

// fetchDescription reads GET /api/v2/spec through cl; a 404 (or 410) is
// an instance that serves none.
func fetchDescription(cl *client.Client) published.Fetch {
	return func(ctx context.Context) ([]byte, error) {
		r, err := cl.Do(ctx, client.Request{Method: http.MethodGet, Path: published.Path, Raw: true})
		var ae *client.APIError
		switch {
		case errors.As(err, &ae) && (ae.StatusCode == http.StatusNotFound || ae.StatusCode == http.StatusGone):
			return nil, published.ErrNotServed
		case err != nil:
			return nil, fmt.Errorf("reading the instance's API description: %w", err)
		}
		return r.Data, nil
	}
}

// FreshDescribed is Described as the instance serves it now: what this
// run has, when it was read by this run, else read again (one request)
// and cached. A refusal must rest on a fresh read: the instance may have
// been upgraded since the cache was written.
func (f *Factory) FreshDescribed(ctx context.Context) (*published.Description, error) {
	r, err := f.Published(ctx)
	if err != nil || !r.Cached {
		return r.Desc, err
	}
	conn, err := f.Connection()
	if err != nil {
		return nil, err
	}
	r, err = publishedCache().Refresh(ctx, conn.Target.Account(), conn.Target.BaseURL, fetchDescription(conn.Client))
	f.published = &publishedRun{r: r, err: err}
	return r.Desc, err
}

// PublishedVersion says, in a line, the instance's API version as its
// description gives it and what knowing it cost: "4.0.0 (the 4.0 release;
// read /api/v2/spec: 10 points)", or "(from cache, 0 points, read 3h ago)".
func PublishedVersion(r published.Reading, cfg *settings.Config) string {
	how := fmt.Sprintf("read /api/v2/spec: %d points", cfg.Budget.Cost(published.Path))
	if r.Cached {
		how = fmt.Sprintf("from cache, 0 points, read %s ago", ago(time.Since(r.FetchedAt)))
	}
	if r.Desc == nil {
		return fmt.Sprintf("the instance serves no API description (%s)", how)
	}
	if rel := spec.Release(r.Desc.Version); rel != "" {
		return fmt.Sprintf("%s (the %s release; %s)", r.Desc.Version, rel, how)
	}
	return fmt.Sprintf("%s (%s)", r.Desc.Version, how)
}

// ago is a duration as a person says it: whole seconds, minutes or hours.
func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	}
	return fmt.Sprintf("%dh", int(d.Hours()))
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
