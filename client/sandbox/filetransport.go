package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"

	"github.com/gofrs/flock"
)

// FileTransport serves each request in-process against state persisted in a JSON file, so that
// separate orgctl processes share one sandbox. Each request: lock path+".lock", load (seeding the demo
// org when the file is absent), serve, save atomically, unlock.
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
	var rec *httptest.ResponseRecorder
	err := t.withState(func(s *Server) error {
		r := req.Clone(req.Context())
		r.Body = io.NopCloser(bytes.NewReader(body))
		if r.Host == "" {
			r.Host = req.URL.Host
		}
		rec = httptest.NewRecorder()
		s.ServeHTTP(rec, r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	resp := rec.Result()
	resp.Request = req
	return resp, nil
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
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("sandbox: create state directory: %w", err)
		}
	}
	lock := flock.New(t.path + ".lock")
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
	tmp, err := os.CreateTemp(filepath.Dir(t.path), filepath.Base(t.path)+".tmp*")
	if err != nil {
		return fmt.Errorf("sandbox: save state: %w", err)
	}
	if _, err := tmp.Write(out); err != nil {
		_ = tmp.Close()
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("sandbox: save state: %w", err)
	}
	if err := tmp.Close(); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("sandbox: save state: %w", err)
	}
	if err := os.Rename(tmp.Name(), t.path); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("sandbox: save state: %w", err)
	}
	return nil
}
