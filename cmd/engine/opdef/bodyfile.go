package opdef

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// BodyTooLarge says that input meant for a request body is over the one
// limit, maxBodyBytes; size < 0 when only "more" is known (stdin).
func BodyTooLarge(what string, size int64) error {
	if size < 0 {
		return fmt.Errorf("%s is larger than the %d MiB limit for request bodies; nothing was sent", what, MaxBodyBytes>>20)
	}
	return fmt.Errorf("%s is %.1f MiB, larger than the %d MiB limit for request bodies; nothing was sent", what, float64(size)/(1<<20), MaxBodyBytes>>20)
}

// checkFileSize refuses a regular file over the limit before a byte of it
// is read, so a mistaken 200 MB file costs nothing.
func checkFileSize(r io.Reader, what string) error {
	f, ok := r.(*os.File)
	if !ok {
		return nil
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() <= MaxBodyBytes {
		return nil
	}
	return BodyTooLarge(what, st.Size())
}

// ReadBodyFile reads a file named on the command line for a request body,
// "-" meaning stdin, within the limit.
func ReadBodyFile(name string, stdin io.Reader, what string) ([]byte, error) {
	if name == "-" {
		if stdin == nil {
			return nil, fmt.Errorf("%s: no standard input", what)
		}
		return ReadLimited(stdin, what)
	}
	f, err := os.Open(name)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err // what already names the file
		}
		return nil, fmt.Errorf("%s: %v", what, err)
	}
	defer f.Close()
	return ReadLimited(f, what)
}
