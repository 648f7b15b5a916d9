package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func createFolders(tr *FileTransport, tag string, n int) error {
	tok, err := tr.AdminToken()
	if err != nil {
		return err
	}
	c := &http.Client{Transport: tr}
	for i := 0; i < n; i++ {
		b, _ := json.Marshal(map[string]any{"name": fmt.Sprintf("%s-%d", tag, i), "folder_type": "app"})
		req, _ := http.NewRequest("POST", "http://sandbox.local/api/v2/folders", bytes.NewReader(b))
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			return fmt.Errorf("%s-%d: status %d", tag, i, resp.StatusCode)
		}
	}
	return nil
}

func countFolders(t *testing.T, path, prefix string) int {
	t.Helper()
	tr := NewFileTransport(path, Options{Points: 1 << 30})
	tok, _ := tr.AdminToken()
	req, _ := http.NewRequest("GET", "http://sandbox.local/api/v2/folders", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct{ Data []map[string]any }
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range body.Data {
		// System folders (personalRoot) are not the ones the processes made.
		if name, _ := f["name"].(string); f["is_system_folder"] == false && len(name) > len(prefix) && name[:len(prefix)] == prefix {
			n++
		}
	}
	return n
}

func TestFileTransportConcurrentGoroutines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	const workers, each = 6, 5
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			errs <- createFolders(NewFileTransport(path, Options{Points: 1 << 30}), "g"+strconv.Itoa(w), each)
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if got := countFolders(t, path, "g"); got != workers*each {
		t.Fatalf("folders created: %d, want %d (writes lost)", got, workers*each)
	}
}

// TestFileTransportChild is the body of the re-executed processes; it does nothing in a normal run.
func TestFileTransportChild(t *testing.T) {
	path := os.Getenv("SANDBOX_CHILD_STATE")
	if path == "" {
		t.Skip("only runs as a child of TestFileTransportConcurrentProcesses")
	}
	if err := createFolders(NewFileTransport(path, Options{Points: 1 << 30}), os.Getenv("SANDBOX_CHILD_TAG"), 5); err != nil {
		t.Fatal(err)
	}
}

func TestFileTransportConcurrentProcesses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	const procs = 4
	cmds := make([]*exec.Cmd, procs)
	outs := make([]*bytes.Buffer, procs)
	for i := range cmds {
		cmds[i] = exec.Command(os.Args[0], "-test.run=^TestFileTransportChild$", "-test.count=1")
		cmds[i].Env = append(os.Environ(), "SANDBOX_CHILD_STATE="+path, "SANDBOX_CHILD_TAG=p"+strconv.Itoa(i))
		outs[i] = &bytes.Buffer{}
		cmds[i].Stdout, cmds[i].Stderr = outs[i], outs[i]
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("child %d: %v\n%s", i, err, outs[i])
		}
	}
	if got := countFolders(t, path, "p"); got != procs*5 {
		t.Fatalf("folders created by %d processes: %d, want %d", procs, got, procs*5)
	}
}

func TestFileTransportPersistsTokensAndBudget(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	a := NewFileTransport(path, Options{Points: 4})
	tokA, err := a.AdminToken()
	if err != nil {
		t.Fatal(err)
	}
	tokB, _ := NewFileTransport(path, Options{Points: 4}).AdminToken()
	if tokA != tokB || tokA == "" {
		t.Fatal("admin token must be persisted and shared")
	}
	c := &http.Client{Transport: a}
	statuses := []int{}
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequest("GET", "http://sandbox.local/api/v2/users", nil)
		req.Header.Set("Authorization", "Bearer "+tokA)
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		statuses = append(statuses, resp.StatusCode)
	}
	if fmt.Sprint(statuses) != "[200 200 429]" {
		t.Fatalf("budget across requests of one file: %v", statuses)
	}
}

func TestFileTransportResponseCarriesStatusHeadersAndBody(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	tr := NewFileTransport(path, Options{Points: 2})
	tok, err := tr.AdminToken()
	if err != nil {
		t.Fatal(err)
	}
	get := func() (*http.Response, []byte) {
		req, _ := http.NewRequest("GET", "http://sandbox.local/api/v2/users?limit=1", nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := tr.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.Request != req {
			t.Error("Response.Request is not the request sent")
		}
		if resp.ContentLength != int64(len(b)) {
			t.Errorf("ContentLength %d, body %d bytes", resp.ContentLength, len(b))
		}
		return resp, b
	}
	resp, b := get()
	if resp.StatusCode != 200 || resp.Status != "200 OK" || resp.Header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Fatalf("first call: %q %v", resp.Status, resp.Header)
	}
	var page struct {
		Data    []map[string]any `json:"data"`
		HasMore bool             `json:"has_more"`
	}
	if err := json.Unmarshal(b, &page); err != nil || len(page.Data) != 1 || !page.HasMore {
		t.Fatalf("first call body %s: %v", b, err)
	}
	resp, b = get() // 4 points over a budget of 2
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "60" || !bytes.Contains(b, []byte("Rate limit exceeded")) {
		t.Fatalf("over budget: %q Retry-After=%q %s", resp.Status, resp.Header.Get("Retry-After"), b)
	}
}

func TestFileTransportLatencyWaitsOutsideTheLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	slow := NewFileTransport(path, Options{Points: 1 << 30, Latency: time.Hour})
	tok, err := slow.AdminToken()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		req, _ := http.NewRequestWithContext(ctx, "POST", "http://sandbox.local/api/v2/folders", strings.NewReader(`{"name":"slow-1","folder_type":"app"}`))
		req.Header.Set("Authorization", "Bearer "+tok)
		_, err := slow.RoundTrip(req)
		done <- err
	}()
	// Another process's transport still gets the lock and sees the write while the answer is held back.
	for countFolders(t, path, "slow-") == 0 {
		select {
		case err := <-done:
			t.Fatalf("answered before the latency: %v", err)
		case <-time.After(10 * time.Millisecond):
		}
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("RoundTrip error %v, want context.Canceled", err)
	}
}
