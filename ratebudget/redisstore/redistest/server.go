// Package redistest starts a throwaway redis-server for tests: on a free
// loopback port, keeping nothing on disk, optionally with TLS (a CA and
// certificate made for the test) and a password or ACL user, and killed at
// the test's cleanup. Tests skip with a message when redis-server is not
// installed, except under CI=true, where .ci/run installs it and a skip
// would hide a missing install step.
//
// It is test support: only _test.go files may import it.
package redistest

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gomodule/redigo/redis"
)

// Options choose how the server is set up.
type Options struct {
	// TLS serves only TLS, with a certificate for 127.0.0.1 signed by a CA
	// made for this test (Server.CAFile, Server.TLSConfig).
	TLS bool
	// Password alone is required of every client (requirepass). With User,
	// it is the password of an ACL user allowed only what the budget store
	// needs, and the default user is disabled.
	User, Password string
}

// StoreCommands are the commands the budget store sends, as its package doc
// lists them for an ACL user.
const StoreCommands = "eval evalsha time hmget hget hset hincrby pexpire"

// Server is a running redis-server.
type Server struct {
	Addr string // 127.0.0.1:port
	// URL reaches the server with the credentials of Options.
	URL string
	// CAFile is the PEM file of the CA that signed a TLS server's certificate.
	CAFile string
	// TLSConfig trusts that CA.
	TLSConfig *tls.Config

	t      testing.TB
	dir    string
	args   []string
	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan error
	out    *syncBuffer
}

// Binary is the redis-server found on PATH, or "" (and the test is skipped,
// or failed under CI) when there is none.
func Binary(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		msg := "redis-server is not installed (apt-get install -y redis-server; .ci/run installs it)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return bin
}

// Start runs a redis-server for the test and stops it at cleanup.
func Start(t testing.TB, o Options) *Server {
	t.Helper()
	bin := Binary(t)
	s := &Server{t: t, dir: t.TempDir()}
	for attempt := 0; ; attempt++ {
		port := freePort(t)
		s.Addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		s.args = []string{"--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
			"--dir", s.dir, "--daemonize", "no", "--logfile", ""}
		if o.TLS {
			s.setupTLS(t)
			s.args = append(s.args, "--port", "0", "--tls-port", strconv.Itoa(port),
				"--tls-cert-file", filepath.Join(s.dir, "server.pem"),
				"--tls-key-file", filepath.Join(s.dir, "server-key.pem"),
				"--tls-ca-cert-file", s.CAFile, "--tls-auth-clients", "no")
		} else {
			s.args = append(s.args, "--port", strconv.Itoa(port))
		}
		if o.Password != "" && o.User == "" {
			s.args = append(s.args, "--requirepass", o.Password)
		}
		if o.User != "" {
			// What the budget store needs, plus PING, HGETALL and PTTL for
			// tests to look; the default user is off, so only this one
			// can connect.
			s.args = append(s.args, "--user", "default", "off", "--user", o.User, "on", ">"+o.Password, "~orgctl:budget:*", "-@all")
			for _, c := range strings.Fields(StoreCommands + " ping hgetall pttl") {
				s.args = append(s.args, "+"+c)
			}
		}
		err := s.start(bin)
		if err == nil {
			break
		}
		if o.TLS && strings.Contains(s.output(), "TLS") && strings.Contains(s.output(), "not") && strings.Contains(s.output(), "support") {
			t.Skipf("this redis-server build has no TLS support: %s", s.output())
		}
		if attempt == 4 || !strings.Contains(s.output(), "in use") {
			t.Fatalf("redis-server %s: %v\n%s", strings.Join(s.args, " "), err, s.output())
		}
	}
	scheme := "redis"
	if o.TLS {
		scheme = "rediss"
	}
	u := url.URL{Scheme: scheme, Host: s.Addr, Path: "/0"}
	switch {
	case o.User != "":
		u.User = url.UserPassword(o.User, o.Password)
	case o.Password != "":
		u.User = url.UserPassword("", o.Password)
	}
	s.URL = u.String()
	t.Cleanup(s.Stop)
	return s
}

func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// start launches the server and waits until it answers.
func (s *Server) start(bin string) error {
	cmd := exec.Command(bin, s.args...)
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	s.mu.Lock()
	s.out = out
	s.mu.Unlock()
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			return fmt.Errorf("exited at start: %v", err)
		default:
		}
		if s.ping() {
			s.mu.Lock()
			s.cmd, s.exited = cmd, exited
			s.mu.Unlock()
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	_ = cmd.Process.Kill()
	<-exited
	return fmt.Errorf("did not answer within 10s")
}

// ping reports whether the server accepts connections: a refused dial is
// the only "not yet"; an answer of any kind (even NOAUTH) means it is up.
func (s *Server) ping() bool {
	d := net.Dialer{Timeout: time.Second}
	conn, err := d.Dial("tcp", s.Addr)
	if err != nil {
		return false
	}
	conn.Close()
	opts := []redis.DialOption{redis.DialConnectTimeout(time.Second), redis.DialReadTimeout(time.Second)}
	if s.TLSConfig != nil {
		opts = append(opts, redis.DialUseTLS(true), redis.DialTLSConfig(s.TLSConfig))
	}
	c, err := redis.Dial("tcp", s.Addr, opts...)
	if err != nil {
		return false
	}
	defer c.Close()
	_, err = c.Do("PING")
	return err == nil || strings.Contains(err.Error(), "NOAUTH") || strings.Contains(err.Error(), "WRONGPASS") || strings.Contains(err.Error(), "AUTH")
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *syncBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

func (s *Server) output() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.out == nil {
		return ""
	}
	return s.out.String()
}

// Stop kills the server (as a crash would end it) and waits for it to go.
func (s *Server) Stop() {
	s.mu.Lock()
	cmd, exited := s.cmd, s.exited
	s.cmd, s.exited = nil, nil
	s.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Kill()
	<-exited
}

// Restart starts the server again on the same port, empty, as a store that
// came back after a crash would be.
func (s *Server) Restart() {
	s.t.Helper()
	s.Stop()
	if err := s.start(Binary(s.t)); err != nil {
		s.t.Fatalf("restarting redis-server: %v\n%s", err, s.output())
	}
}

// Client is a connection to the server with the test's credentials, for
// looking at keys directly.
func (s *Server) Client(t testing.TB) redis.Conn {
	t.Helper()
	var opts []redis.DialOption
	if s.TLSConfig != nil {
		opts = append(opts, redis.DialTLSConfig(s.TLSConfig))
	}
	c, err := redis.DialURL(s.URL, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// setupTLS makes a CA and a certificate for 127.0.0.1 signed by it.
func (s *Server) setupTLS(t testing.TB) {
	t.Helper()
	if s.TLSConfig != nil {
		return
	}
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	ca := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "orgctl test CA"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(24 * time.Hour),
		IsCA:                  true,
		KeyUsage:              x509.KeyUsageCertSign,
		BasicConstraintsValid: true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		t.Fatal(err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	leaf := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	leafDER, err := x509.CreateCertificate(rand.Reader, leaf, caCert, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	s.CAFile = filepath.Join(s.dir, "ca.pem")
	write := func(name, typ string, der []byte) {
		if err := os.WriteFile(filepath.Join(s.dir, name), pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("ca.pem", "CERTIFICATE", caDER)
	write("server.pem", "CERTIFICATE", leafDER)
	write("server-key.pem", "EC PRIVATE KEY", keyDER)
	pool := x509.NewCertPool()
	pool.AddCert(caCert)
	s.TLSConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
}
