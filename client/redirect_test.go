package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A redirect to another origin or from https to http is never followed:
// the token stays with the configured origin.
func TestRedirectsToAnotherOriginAreRefused(t *testing.T) {
	for _, method := range []string{http.MethodGet, http.MethodDelete, http.MethodPost, http.MethodPatch} {
		for _, status := range []int{301, 302, 303, 307, 308} {
			t.Run(method+"/"+http.StatusText(status), func(t *testing.T) {
				other := serve(t, answer(200, `{"success":true,"data":[]}`))
				api := serve(t, func(_ int, w http.ResponseWriter, r *http.Request) {
					http.Redirect(w, r, other.URL+r.URL.Path, status)
				})
				_, err := newClient(t, api.URL, nil).Do(context.Background(), Request{Method: method, Path: "/users", Body: []byte(`{}`)})
				var re *RedirectError
				if !errors.As(err, &re) || re.StatusCode != status || re.Location != other.URL+"/api/v2/users" {
					t.Fatalf("err = %T %v, want a RedirectError to %s", err, err, other.URL)
				}
				if !strings.Contains(err.Error(), "another origin") {
					t.Errorf("err = %v, want it to say another origin", err)
				}
				var ou *OutcomeUnknownError
				if unknown := errors.As(err, &ou); unknown != !changesNothing(Request{Method: method}) {
					t.Errorf("outcome unknown = %v for %s", unknown, method)
				}
				if other.count() != 0 || api.count() != 1 {
					t.Errorf("api saw %d, other origin saw %d; want 1 and 0", api.count(), other.count())
				}
			})
		}
	}
}

func TestRedirectFromHTTPSToHTTPIsRefused(t *testing.T) {
	plain := serve(t, answer(200, `{"success":true,"data":[]}`))
	tlsSrv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, plain.URL+r.URL.Path, http.StatusFound)
	}))
	t.Cleanup(tlsSrv.Close)
	c := newClient(t, tlsSrv.URL, func(o *Options) { o.Transport = &sendTransport{next: tlsSrv.Client().Transport} })
	_, err := c.Do(context.Background(), Request{Method: http.MethodGet, Path: "/users"})
	var re *RedirectError
	if !errors.As(err, &re) || !strings.Contains(re.Why, "from https to http") {
		t.Fatalf("err = %v, want a refused https-to-http redirect", err)
	}
	if plain.count() != 0 {
		t.Errorf("the plain-http server saw %d requests", plain.count())
	}
}

// Same-origin redirects of a GET are followed, with the token; of a write,
// never (net/http would turn a POST into a GET and report the GET's answer).
func TestSameOriginRedirects(t *testing.T) {
	api := serve(t, func(_ int, w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v2/old" {
			http.Redirect(w, r, "/api/v2/new", http.StatusMovedPermanently)
			return
		}
		if r.Header.Get("Authorization") == "" {
			w.WriteHeader(401)
			return
		}
		answer(200, `{"success":true,"data":{"at":"new"}}`)(0, w, r)
	})
	c := newClient(t, api.URL, nil)
	resp, err := c.Do(context.Background(), Request{Method: http.MethodGet, Path: "/old"})
	if err != nil || string(resp.Data) != `{"at":"new"}` {
		t.Fatalf("GET: %v %v, want the redirect followed", resp, err)
	}
	_, err = c.Do(context.Background(), Request{Method: http.MethodPost, Path: "/old", Body: []byte(`{}`)})
	var ou *OutcomeUnknownError
	var re *RedirectError
	if !errors.As(err, &ou) || !errors.As(err, &re) || re.StatusCode != 301 || !strings.Contains(re.Why, "POST") {
		t.Fatalf("POST: err = %v, want an unknown outcome caused by the redirect", err)
	}
	if api.count() != 3 {
		t.Errorf("server saw %d requests, want 3 (GET, its redirect, the POST)", api.count())
	}
}

func TestRedirectLoopStops(t *testing.T) {
	api := serve(t, func(n int, w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/api/v2/loop", http.StatusFound)
	})
	_, err := get(t, newClient(t, api.URL, nil), "/loop")
	var re *RedirectError
	if !errors.As(err, &re) || !strings.Contains(re.Why, "redirects in a row") {
		t.Fatalf("err = %v", err)
	}
	if api.count() != maxRedirects+1 {
		t.Errorf("server saw %d requests, want %d", api.count(), maxRedirects+1)
	}
}

func TestValidateBaseURLNeverEchoesUserInfo(t *testing.T) {
	for _, raw := range []string{"http://u:SECRET@127.0.0.1:9", "https://SECRET@acme.example.com", "http://u:SECRET@host:port", "u:SECRET@host"} {
		_, err := ValidateBaseURL(raw, false)
		if err == nil || strings.Contains(err.Error(), "SECRET") {
			t.Errorf("ValidateBaseURL(%q) = %v; want an error that does not echo the secret", raw, err)
		}
	}
}
