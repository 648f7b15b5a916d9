package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"

	"github.com/gofrs/flock"

	"github.com/orgctl/orgctl/output/atomicfile"
	"github.com/orgctl/orgctl/output/fsguard"
)

// FileTransport serves each request in-process against state persisted in a JSON file, so that
// separate orgctl processes share one sandbox. Each request: lock path+".lock", load (seeding a new
// org per opts when the file is absent), serve, save atomically, unlock; then wait opts.Latency.
type FileTransport struct {
	path string
	opts Options
}

// NewFileTransport returns a transport over the state file at path.
func NewFileTransport(path string, opts Options) *FileTransport {
	return &FileTransport{path: path, opts: opts}
}

// RoundTrip serves req against the file's state and persists the result.
func (t *FileTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		_ = req.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("sandbox: read request body: %w", err)
		}
		body = b
	}
	rec := &responseBuffer{}
	err := t.withState(func(s *Server) error {
		s.opts.Latency = 0 // waited below, once the state file is unlocked
		r := req.Clone(req.Context())
		r.Body = io.NopCloser(bytes.NewReader(body))
		if r.Host == "" {
			r.Host = req.URL.Host
		}
		s.ServeHTTP(rec, r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := delay(req.Context(), t.opts.Latency); err != nil {
		return nil, err
	}
	return rec.response(req), nil
}

// responseBuffer collects one in-process answer; the binary has no use for
// net/http/httptest beyond this, so it does not link it.
type responseBuffer struct {
	header http.Header
	sent   http.Header // the header as it was when the status was written
	status int
	body   bytes.Buffer
}

func (b *responseBuffer) Header() http.Header {
	if b.header == nil {
		b.header = http.Header{}
	}
	return b.header
}

func (b *responseBuffer) WriteHeader(status int) {
	if b.status != 0 {
		return
	}
	b.status = status
	b.sent = b.Header().Clone()
}

func (b *responseBuffer) Write(p []byte) (int, error) {
	b.WriteHeader(http.StatusOK)
	return b.body.Write(p)
}

func (b *responseBuffer) response(req *http.Request) *http.Response {
	b.WriteHeader(http.StatusOK)
	return &http.Response{
		Status:        fmt.Sprintf("%d %s", b.status, http.StatusText(b.status)),
		StatusCode:    b.status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        b.sent,
		Body:          io.NopCloser(bytes.NewReader(b.body.Bytes())),
		ContentLength: int64(b.body.Len()),
		Request:       req,
	}
}

// AdminToken returns the all-scope admin token, seeding the state file when needed.
func (t *FileTransport) AdminToken() (string, error) {
	var tok string
	err := t.withState(func(s *Server) error {
		tok = s.st.adminToken()
		return nil
	})
	return tok, err
}

func (t *FileTransport) withState(fn func(*Server) error) error {
	if dir := filepath.Dir(t.path); dir != "" {
		if err := fsguard.MkdirAll(dir); err != nil {
			return fmt.Errorf("sandbox: state directory: %w", err)
		}
	}
	lock := flock.New(t.path+".lock", flock.SetFlag(os.O_CREATE|os.O_RDONLY|fsguard.NoFollow))
	if err := lock.Lock(); err != nil {
		return fmt.Errorf("sandbox: lock %s: %w", t.path+".lock", err)
	}
	defer func() { _ = lock.Unlock() }()

	s := New(t.opts)
	raw, err := os.ReadFile(t.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("sandbox: read state: %w", err)
	default:
		if err := s.UnmarshalState(raw); err != nil {
			return fmt.Errorf("sandbox: state file %s: %w", t.path, err)
		}
	}
	if err := fn(s); err != nil {
		return err
	}
	out, err := s.MarshalState()
	if err != nil {
		return err
	}
	if err := atomicfile.Write(t.path, out, 0o600); err != nil {
		return fmt.Errorf("sandbox: save state: %w", err)
	}
	return nil
}
