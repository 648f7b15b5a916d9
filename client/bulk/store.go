package bulk

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gofrs/flock"
	"github.com/orgctl/orgctl/output/fsguard"
)

// Store is the directory of jobs ($XDG_STATE_HOME/orgctl/jobs): one
// directory per job named by its ID, holding its journal, a lock while a
// process runs it, and the spooled input of a job read from stdin.
type Store struct{ Dir string }

// Files of a job directory.
const (
	journalFile = "journal"
	lockFile    = "lock"
	inputFile   = "input"
)

// JobID names a job by what decides its requests: the command, its flags,
// where it sends, and the input's bytes (InputHash). Running the same
// command on the same input against the same org is the same job.
func JobID(command string, flags []string, target string, inputSum []byte) string {
	h := sha256.New()
	for _, part := range append([]string{"orgctl-job 1", command, target, hex.EncodeToString(inputSum)}, flags...) {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// InputHash is the hash the job ID takes of the input's bytes.
func InputHash() hash.Hash { return sha256.New() }

// JournalPath is where job id keeps its journal.
func (s Store) JournalPath(id string) string { return filepath.Join(s.Dir, id, journalFile) }

// InputPath is where a job read from stdin keeps its input.
func (s Store) InputPath(id string) string { return filepath.Join(s.Dir, id, inputFile) }

// Lock takes job id for this process, creating its directory; a second
// process running the same job gets ErrBusy.
func (s Store) Lock(id string) (unlock func(), err error) {
	dir := filepath.Join(s.Dir, id)
	if err := fsguard.MkdirAll(dir); err != nil {
		return nil, err
	}
	l := flock.New(filepath.Join(dir, lockFile), flock.SetFlag(os.O_CREATE|os.O_RDONLY|fsguard.NoFollow))
	ok, err := l.TryLock()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrBusy
	}
	return func() { l.Unlock() }, nil
}

// ErrBusy is a job another process is running.
var ErrBusy = errors.New("the job is running in another process")

// Busy reports whether a process holds job id's lock.
func (s Store) Busy(id string) bool {
	l := flock.New(filepath.Join(s.Dir, id, lockFile), flock.SetFlag(os.O_CREATE|os.O_RDONLY|fsguard.NoFollow))
	ok, err := l.TryLock()
	if err != nil || !ok {
		return err == nil
	}
	l.Unlock()
	return false
}

// Spool copies r (stdin) into a new file in the store and returns its
// path and the hash of its bytes: stdin can be read once, a job reads its
// input twice (check every row, then run them) and again on resume.
func (s Store) Spool(r io.Reader) (path string, sum []byte, err error) {
	if err := fsguard.MkdirAll(s.Dir); err != nil {
		return "", nil, err
	}
	f, err := os.CreateTemp(s.Dir, ".stdin-*")
	if err != nil {
		return "", nil, err
	}
	h := InputHash()
	_, err = io.Copy(io.MultiWriter(f, h), r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", nil, err
	}
	return f.Name(), h.Sum(nil), nil
}

// Keep moves a spooled input into job id's directory (replacing none: a
// resumed job already holds the same bytes) and returns where it is.
func (s Store) Keep(spooled, id string) (string, error) {
	dst := s.InputPath(id)
	if _, err := os.Stat(dst); err == nil {
		return dst, os.Remove(spooled)
	}
	if err := fsguard.MkdirAll(filepath.Dir(dst)); err != nil {
		return "", err
	}
	return dst, os.Rename(spooled, dst)
}

// Entry is a job as the store knows it.
type Entry struct {
	*State
	ID      string
	Running bool
}

// List reads every job's journal, newest first. Unreadable journals are skipped.
func (s Store) List() ([]Entry, error) {
	ents, err := os.ReadDir(s.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var jobs []Entry
	for _, e := range ents {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		st, err := Load(s.JournalPath(e.Name()))
		if err != nil {
			continue
		}
		jobs = append(jobs, Entry{State: st, ID: e.Name(), Running: s.Busy(e.Name())})
	}
	sort.Slice(jobs, func(i, j int) bool { return jobs[i].Last.After(jobs[j].Last) })
	return jobs, nil
}

// Find is the one job whose ID starts with prefix.
func (s Store) Find(prefix string) (string, error) {
	prefix = strings.TrimSpace(prefix)
	if prefix == "" || strings.ContainsAny(prefix, `/\.`) {
		return "", fmt.Errorf("invalid job ID %q", prefix)
	}
	ents, err := os.ReadDir(s.Dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	var found []string
	for _, e := range ents {
		if e.IsDir() && strings.HasPrefix(e.Name(), prefix) {
			found = append(found, e.Name())
		}
	}
	switch len(found) {
	case 0:
		return "", &NoJobError{ID: prefix}
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("%d jobs start with %q (%s): give more of the ID", len(found), prefix, strings.Join(found, ", "))
}

// NoJobError is an ID that names no job.
type NoJobError struct{ ID string }

func (e *NoJobError) Error() string {
	return fmt.Sprintf("no job %q: see `orgctl jobs list`", e.ID)
}

// Remove forgets job id: its journal and spooled input.
func (s Store) Remove(id string) error {
	if s.Busy(id) {
		return ErrBusy
	}
	return os.RemoveAll(filepath.Join(s.Dir, id))
}

// Restart forgets job id's journal so the job starts over; a spooled input stays.
func (s Store) Restart(id string) error {
	err := os.Remove(s.JournalPath(id))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}
