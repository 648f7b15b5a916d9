package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkLargeOutput prints, for each output format, orgctl's peak RSS as
// a multiple of the answer's size and its wall time as a multiple of curl's
// for the same answer, all measured in one run (the machine is shared and
// noisy, so only ratios mean something). Run it with
//
//	go test -run '^$' -bench LargeOutput -benchtime 1x .
//
// Each format is timed twice: with the answer served as fast as loopback
// goes, which shows what orgctl costs beside the network, and at
// ORGCTL_BENCH_RATE MB/s (default 20, a fast link to a remote API), which
// is what a user waits for: there orgctl's work overlaps the wait for the
// answer's last byte.
//
// ORGCTL_BENCH_USERS (default 100000) and ORGCTL_BENCH_RUNS (default 5)
// change the answer's size and the number of runs whose median is taken;
// ORGCTL_BENCH_BINARY measures a binary built elsewhere (another branch)
// instead of this tree's.
func BenchmarkLargeOutput(b *testing.B) {
	curl, err := exec.LookPath("curl")
	if err != nil {
		b.Skip("curl is not installed: it is the reference the times are divided by")
	}
	users := envInt(b, "ORGCTL_BENCH_USERS", 100000)
	runs := envInt(b, "ORGCTL_BENCH_RUNS", 5)
	rate := envInt(b, "ORGCTL_BENCH_RATE", 20)

	dir := b.TempDir()
	bin := os.Getenv("ORGCTL_BENCH_BINARY")
	if bin == "" {
		bin = buildOrgctl(b)
	}
	// The answer lives in a file, not in this process: a child's peak RSS
	// as rusage reports it is at least this process's at the fork.
	body := filepath.Join(dir, "users.json")
	size := writeUsersEnvelope(b, body, users)
	url := serveFile(b, body, rate)

	env := append(os.Environ(),
		"HOME="+dir,
		"XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		"XDG_STATE_HOME="+filepath.Join(dir, "state"),
		"XDG_CACHE_HOME="+filepath.Join(dir, "cache"),
		"ORGCTL_TOKEN=bench-token",
		"ORGCTL_FORCE_TTY=",
		"NO_COLOR=1",
	)
	type variant struct {
		name    string
		args    []string
		env     []string
		chunked bool
	}
	variants := []variant{
		{"-o json (piped)", []string{"users", "list", "-o", "json"}, nil, false},
		{"table (piped TSV)", []string{"users", "list"}, nil, false},
		{"-o yaml", []string{"users", "list", "-o", "yaml"}, nil, false},
		{"--jq '.[].email'", []string{"users", "list", "--jq", ".[].email"}, nil, false},
		{"-o json (terminal)", []string{"users", "list", "-o", "json"}, []string{"ORGCTL_FORCE_TTY=1"}, false},
		// The API itself answers lists chunked, without a Content-Length:
		// the server then copies the answer instead of sending the file,
		// and curl fetches that same answer.
		{"TSV, chunked answer", []string{"users", "list"}, nil, true},
		{"yaml, chunked answer", []string{"users", "list", "-o", "yaml"}, nil, true},
	}

	// Runs alternate curl and orgctl so that a slow spell of the machine
	// weighs on both; each ratio is the median of per-pair ratios.
	type figures struct{ rss, time, paced []float64 }
	results := make([]figures, len(variants))
	curlTimes := map[string][]float64{}
	for i := range variants {
		v := variants[i]
		for _, paced := range []bool{false, true} {
			base := url
			if v.chunked {
				base += "/chunked"
			}
			if paced {
				base += "/paced"
			}
			curlArgs := []string{"-s", "-o", os.DevNull, "-H", "Authorization: Bearer bench-token", base + "/api/v2/users"}
			venv := append(slices.Clip(env), append(v.env, "ORGCTL_BASE_URL="+base)...)
			measure(b, curl, curlArgs, env) // warm-up: page cache, loopback
			measure(b, bin, v.args, venv)
			for r := 0; r < runs; r++ {
				ct, _ := measure(b, curl, curlArgs, env)
				ot, rss := measure(b, bin, v.args, venv)
				curlTimes[fmt.Sprint(v.chunked, paced)] = append(curlTimes[fmt.Sprint(v.chunked, paced)], ct.Seconds())
				if paced {
					results[i].paced = append(results[i].paced, ot.Seconds()/ct.Seconds())
				} else {
					results[i].time = append(results[i].time, ot.Seconds()/ct.Seconds())
				}
				results[i].rss = append(results[i].rss, float64(rss)/float64(size))
			}
		}
	}
	fmt.Printf("\nanswer: %d users, %.1f MB; curl median %.0f ms (chunked: %.0f ms) on loopback, %.0f ms at %d MB/s; medians of %d runs\n",
		users, float64(size)/1e6, median(curlTimes["false false"])*1000, median(curlTimes["true false"])*1000,
		median(curlTimes["false true"])*1000, rate, runs)
	fmt.Printf("%-20s %18s %18s %18s\n", "format", "peak RSS / answer", "time / curl", fmt.Sprintf("at %d MB/s", rate))
	for i, v := range variants {
		rss, t, p := median(results[i].rss), median(results[i].time), median(results[i].paced)
		fmt.Printf("%-20s %17.2fx %17.2fx %17.2fx\n", v.name, rss, t, p)
		key := strings.NewReplacer(" ", "", "'", "", "(", "-", ")", "", ".[].", "", "--", "").Replace(v.name)
		b.ReportMetric(rss, key+"-rss/answer")
		b.ReportMetric(t, key+"-time/curl")
		b.ReportMetric(p, key+"-paced/curl")
	}
}

// measure runs one command with stdout to /dev/null and returns its wall
// time and peak RSS in bytes.
func measure(b *testing.B, name string, args, env []string) (time.Duration, int64) {
	b.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer devnull.Close()
	cmd.Stdout = devnull
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, stderr.String())
	}
	elapsed := time.Since(start)
	return elapsed, int64(maxRSSMiB(cmd.ProcessState) * (1 << 20))
}

// writeUsersEnvelope writes a list answer shaped like the sandbox's GET
// /users to path: the envelope, and user objects with the sandbox's fields
// in its (sorted) order. It returns the answer's size.
func writeUsersEnvelope(b *testing.B, path string, n int) int64 {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString(`{"success":true,"data":[`)
	for i := 1; i <= n; i++ {
		if i > 1 {
			w.WriteByte(',')
		}
		fmt.Fprintf(w, `{"active":%t,"created_at":"2024-%02d-%02dT%02d:%02d:%02d.000Z","email":"user%06d@example.com",`+
			`"first_name":"First%d","id":"user_%032x","is_admin":%t,"last_active":null,"last_name":"Last%d",`+
			`"legacy_id":%d,"metadata":{"team":"team-%d"},"two_factor_auth_enabled":false,"user_type":"default"}`,
			i%7 != 0, i%12+1, i%28+1, i%24, i%60, (i*7)%60, i, i, 0x5a4d0000000000+i, i%50 == 0, i, i, i%40)
	}
	fmt.Fprintf(w, `],"total_count":%d,"next_token":null,"has_more":false}`, n)
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	st, err := f.Stat()
	if err != nil {
		b.Fatal(err)
	}
	f.Close()
	return st.Size()
}

// serveFile answers every request with the file on a loopback port, with a
// Content-Length as a server sends for a buffered answer, or chunked, as the
// API sends its own, for paths under /chunked/; under /paced/ (after
// /chunked/, if any) at rate MB/s, as from a remote server.
func serveFile(b *testing.B, path string, rate int) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, err := os.Open(path)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		defer f.Close()
		st, _ := f.Stat()
		w.Header().Set("Content-Type", "application/json")
		p := r.URL.Path
		chunked := strings.HasPrefix(p, "/chunked/")
		if !chunked {
			w.Header().Set("Content-Length", strconv.FormatInt(st.Size(), 10))
		}
		p = strings.TrimPrefix(p, "/chunked")
		if !strings.HasPrefix(p, "/paced/") {
			io.Copy(w, f)
			return
		}
		// 64 KiB at a time, each when the rate allows it.
		const piece = 64 << 10
		start, sent := time.Now(), 0
		buf := make([]byte, piece)
		for {
			n, err := f.Read(buf)
			if n > 0 {
				if _, werr := w.Write(buf[:n]); werr != nil {
					return
				}
				sent += n
				time.Sleep(time.Until(start.Add(time.Duration(float64(sent) / float64(rate*1e6) * float64(time.Second)))))
			}
			if err != nil {
				return
			}
		}
	})}
	go srv.Serve(ln)
	b.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

func envInt(b *testing.B, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		b.Fatalf("%s=%q: want a positive integer", name, s)
	}
	return n
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
