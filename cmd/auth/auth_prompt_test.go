package auth

import (
	"bufio"
	"bytes"
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/orgctl/orgctl/cmd/cli"
)

// Why a host cannot be reached is said in words, never as the socket's error.
func TestUnreachableSaysWhyInWords(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&net.OpError{Op: "dial", Err: &net.DNSError{Name: "acme.exmaple.com", Err: "no such host", IsNotFound: true}}, "cannot find the host acme.exmaple.com: no such name in DNS"},
		{&net.OpError{Op: "dial", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}, "nothing answers at acme.example.com:8443 (the connection was refused)"},
		{fmt.Errorf("dial: %w", context.DeadlineExceeded), "acme.example.com:8443 did not answer in time"},
		{x509.UnknownAuthorityError{}, "signed by an authority this machine does not trust; for a private CA set SSL_CERT_FILE"},
		{&net.OpError{Op: "dial", Err: os.NewSyscallError("connect", syscall.ENETUNREACH)}, "no route to acme.example.com:8443"},
		{errors.New("something else"), "cannot reach acme.example.com:8443: something else"},
	} {
		got := unreachable("https://acme.example.com:8443", tc.err).Error()
		if !strings.Contains(got, tc.want) || strings.Contains(got, "dial") {
			t.Errorf("%v:\n got %q\nwant %q", tc.err, got, tc.want)
		}
	}
}

func TestAskYesNo(t *testing.T) {
	for in, want := range map[string]bool{"\n": true, "y\n": true, "YES\n": true, "n\n": false, "nope\n": false} {
		var w bytes.Buffer
		got, err := askYesNo(&w, bufio.NewReader(strings.NewReader(in)), "Use it?", true)
		if err != nil || got != want || w.String() != "Use it? [Y/n] " {
			t.Errorf("%q: %v %v, prompt %q", in, got, err, w.String())
		}
	}
	var w bytes.Buffer
	if _, err := askYesNo(&w, bufio.NewReader(strings.NewReader("")), "Use it?", false); !errors.Is(err, cli.ErrCancelled) {
		t.Errorf("end of input: %v", err)
	}
}

func TestReadTokenFromAPipe(t *testing.T) {
	read := func(text string) (string, error) {
		r := strings.NewReader(text)
		return readToken(r, bufio.NewReader(r))
	}
	s, err := read("  tok_1  \nrest")
	if err != nil || s != "tok_1" {
		t.Errorf("readToken = %q %v", s, err)
	}
	if s, err := read("tok_2"); err != nil || s != "tok_2" {
		t.Errorf("without a newline: %q %v", s, err)
	}
	if _, err := read(""); err == nil {
		t.Error("empty input gave no error")
	}
	// The line after the base URL is the token, though one reader took both in.
	r := strings.NewReader("https://acme.example.com\ntok_3\n")
	in := bufio.NewReader(r)
	in.ReadString('\n')
	if s, err := readToken(r, in); err != nil || s != "tok_3" {
		t.Errorf("after the base URL: %q %v", s, err)
	}
}
