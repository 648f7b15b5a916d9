package auth

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/orgctl/orgctl/client"
	"github.com/orgctl/orgctl/client/access"
	"github.com/orgctl/orgctl/client/kinds"
	"github.com/orgctl/orgctl/cmd/cli"
	"github.com/orgctl/orgctl/output/jsonscan"
)

// loginAttempts bounds how often login asks again for a base URL, so a
// stuck input cannot loop forever.
const loginAttempts = 5

// reachTimeout bounds the connection test of a typed base URL.
const reachTimeout = 5 * time.Second

// askBaseURL asks on the terminal until the answer is a base URL orgctl
// can use and whose host answers: a host without a scheme is offered with
// https://, and a host that cannot be reached is explained in words.
func askBaseURL(ctx context.Context, f *cli.Factory, insecure bool) (string, error) {
	w := f.IO.Err
	ask := f.Ask()
	for range loginAttempts {
		text, err := ask.Input("Base URL of your organization (e.g. https://acme.example.com): ")
		if text == "" {
			if err != nil {
				return "", cli.UsageErrorf("no base URL given: pass --base-url https://acme.example.com")
			}
			fmt.Fprintln(w, "A base URL is needed: the address you open the platform at.")
			continue
		}
		if err := cli.CheckBaseURLText(text, ""); err != nil {
			fmt.Fprintf(w, "%v\n", err)
			continue
		}
		if !strings.Contains(text, "://") {
			guess := "https://" + strings.TrimLeft(text, "/")
			yes, err := ask.Confirm(fmt.Sprintf("%s has no scheme. Use %s?", text, guess), true)
			if err != nil {
				return "", err
			}
			if !yes {
				continue
			}
			text = guess
		}
		if _, err := client.ValidateBaseURL(text, insecure); err != nil {
			fmt.Fprintf(w, "%v\n", err)
			continue
		}
		if f.Transport == nil {
			if err := reachable(ctx, text); err != nil {
				fmt.Fprintf(w, "%v\nCheck the address and try again.\n", err)
				continue
			}
		}
		return strings.TrimRight(text, "/"), nil
	}
	return "", cli.UsageErrorf("no usable base URL after %d tries: pass --base-url https://acme.example.com", loginAttempts)
}

// reachable opens (and closes) a connection to the base URL's host, or to
// the proxy that would carry it, and says in words why that failed.
func reachable(ctx context.Context, base string) error {
	u, err := url.Parse(base)
	if err != nil {
		return err
	}
	addr := u.Host
	if u.Port() == "" {
		addr = net.JoinHostPort(u.Hostname(), map[string]string{"http": "80", "https": "443"}[u.Scheme])
	}
	if proxy, err := http.ProxyFromEnvironment(&http.Request{URL: u}); err == nil && proxy != nil {
		addr = proxy.Host
		if proxy.Port() == "" {
			addr = net.JoinHostPort(proxy.Hostname(), "80")
		}
	}
	d := net.Dialer{Timeout: reachTimeout}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return unreachable(base, err)
	}
	conn.Close()
	return nil
}

// unreachable says why a base URL could not be reached, in words rather
// than the resolver's or the socket's.
func unreachable(base string, err error) error {
	host := base
	if u, perr := url.Parse(base); perr == nil && u.Host != "" {
		host = u.Host
	}
	var dns *net.DNSError
	var unknownCA x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var ne net.Error
	switch {
	case errors.As(err, &dns) && (dns.IsNotFound || !dns.IsTimeout):
		return fmt.Errorf("cannot find the host %s: no such name in DNS. Check the spelling (and VPN, if it is an internal host)", dns.Name)
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("nothing answers at %s (the connection was refused): check the port, or whether the server runs", host)
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout():
		return fmt.Errorf("%s did not answer in time: a firewall, VPN or proxy may be in the way", host)
	case errors.As(err, &unknownCA):
		return fmt.Errorf("the TLS certificate of %s is signed by an authority this machine does not trust; for a private CA set SSL_CERT_FILE", host)
	case errors.As(err, &hostname):
		return fmt.Errorf("the TLS certificate of %s is for another name (%v): check the address", host, hostname.Error())
	case errors.Is(err, syscall.ENETUNREACH) || errors.Is(err, syscall.EHOSTUNREACH):
		return fmt.Errorf("no route to %s: check the network connection", host)
	}
	return fmt.Errorf("cannot reach %s: %v", host, err)
}

// explainReach rewrites a failed request that never reached the API
// (DNS, refused, timed out, TLS) in words; other errors pass through.
func explainReach(base string, err error) error {
	var te *client.TransportError
	if !errors.As(err, &te) {
		return err
	}
	return unreachable(base, te.Cause)
}

// tokenOwner asks the API whose token this is (access.TokenOwner), and
// the user list names that user. "" when the API does not say.
func tokenOwner(ctx context.Context, cl *client.Client, token string) string {
	owner, err := access.TokenOwner(ctx, cl, token)
	if err != nil {
		return ""
	}
	k := kinds.Of("users")
	resp, err := cl.Do(ctx, client.Request{Method: http.MethodGet, Path: k.List, Scope: k.Scope})
	if err != nil {
		return ""
	}
	var users []struct {
		LegacyID  json.RawMessage `json:"legacy_id"`
		Email     string          `json:"email"`
		FirstName string          `json:"first_name"`
		LastName  string          `json:"last_name"`
	}
	if json.Unmarshal(resp.Data, &users) != nil {
		return ""
	}
	for _, u := range users {
		if jsonscan.AsText(u.LegacyID) != owner || u.Email == "" {
			continue
		}
		if name := strings.TrimSpace(u.FirstName + " " + u.LastName); name != "" {
			return u.Email + " (" + name + ")"
		}
		return u.Email
	}
	return ""
}
