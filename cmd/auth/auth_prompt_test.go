package auth

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"syscall"
	"testing"
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
