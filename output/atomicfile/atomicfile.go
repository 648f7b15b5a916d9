// Package atomicfile owns replacing a whole file so that a concurrent reader, or the file system
// after a crash, sees either the old content or the new, never a mix or a truncated file.
//
// It is a leaf: it imports only the standard library, and any orgctl package may import it.
package atomicfile

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
)

// Write replaces the file at path with data and gives it mode perm. The directory must exist.
func Write(path string, data []byte, perm os.FileMode) error {
	return WriteFunc(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFunc replaces the file at path with what write writes, buffered, so a large file need not
// be held in memory. If write (or anything after it) fails, the old file is left as it was and no
// temporary file remains.
//
// The new content goes to a temporary file in the same directory (a rename is atomic only within
// one file system), which is flushed to disk, given mode perm, and renamed over path; the directory
// is then flushed so the rename itself survives a crash.
func WriteFunc(path string, perm os.FileMode, write func(io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
			err = fmt.Errorf("write %s: %w", path, err)
		}
	}()
	bw := bufio.NewWriterSize(tmp, 64<<10)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	return syncDir(dir)
}

// syncDir flushes a directory entry change; Windows cannot open a directory for that, and its
// rename is already durable enough for state files.
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
