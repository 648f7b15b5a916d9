package main

import (
	"bufio"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeUsersCSV writes a users-create file of n rows and returns its path.
func writeUsersCSV(t testing.TB, dir, domain string, n int) string {
	t.Helper()
	path := filepath.Join(dir, fmt.Sprintf("%s-%d.csv", domain, n))
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "email,first-name,last-name")
	for i := range n {
		fmt.Fprintf(w, "u%06d@%s,First%d,Last%d\n", i, domain, i, i)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}

// runMeasured runs orgctl and returns its wall time and peak RSS in MiB.
func (r *budgetRig) runMeasured(t testing.TB, args ...string) (elapsed time.Duration, rssMiB float64, stderr string) {
	elapsed, rssMiB, stderr, _ = r.runTimed(t, args...)
	return
}

// runTimed is runMeasured that also says when the process started.
func (r *budgetRig) runTimed(t testing.TB, args ...string) (elapsed time.Duration, rssMiB float64, stderr string, start time.Time) {
	t.Helper()
	cmd := exec.Command(r.bin, args...)
	cmd.Env = r.env
	var errb strings.Builder
	cmd.Stdout, cmd.Stderr = nil, &errb
	start = time.Now()
	err := cmd.Run()
	elapsed = time.Since(start)
	if err != nil {
		t.Fatalf("orgctl %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	return elapsed, maxRSSMiB(cmd.ProcessState), errb.String(), start
}

// BenchmarkBulkUsersCreate is the bulk job's budget figure: one process
// creates 600 users (1200 points) from a CSV against a sandbox allowing
// 300 points per 6 s. The budget's minimum is 18 s (300 points at once,
// then 300 more at 6, 12 and 18 s); the ratio is elapsed/18 s, measured
// from starting the process to its exit.
// Run: go test -run '^$' -bench BulkUsersCreate -benchtime 1x .
func BenchmarkBulkUsersCreate(b *testing.B) {
	const points, window = 300, 6 * time.Second
	for b.Loop() {
		r := newBudgetRig(b, points, window, window)
		r.bin = buildOrgctl(b)
		file := writeUsersCSV(b, b.TempDir(), "bench.example", 600)
		args := []string{"users", "create", "--from", file, "-o", "json"}
		if p := os.Getenv("ORGCTL_BENCH_PARALLEL"); p != "" {
			args = append(args, "--parallel", p)
		}
		elapsed, rss, stderr, start := r.runTimed(b, args...)
		reqs := r.api.Requests()
		created := 0
		for _, q := range reqs {
			if q.Method == http.MethodPost && q.Status/100 == 2 {
				created++
			}
		}
		peak, n429 := audit(b, reqs, points, window)
		if created != 600 {
			b.Fatalf("%d users created, want 600\n%s", created, stderr)
		}
		ratio := float64(elapsed) / float64(18*time.Second)
		first, last := reqs[0].At, reqs[len(reqs)-1].At
		b.ReportMetric(ratio, "ratio")
		b.ReportMetric(float64(n429), "429s")
		b.ReportMetric(float64(peak), "peak-points")
		b.ReportMetric(rss, "MiB-peak-RSS")
		fmt.Fprintf(os.Stderr, "bulk 600 users: elapsed=%v ratio=%.3f 429s=%d peak=%d/%d first-request=+%v last-request=+%v peak-RSS=%.1fMiB\n",
			elapsed.Round(time.Millisecond), ratio, n429, peak, points, first.Sub(start).Round(time.Millisecond),
			last.Sub(start).Round(time.Millisecond), rss)
		if os.Getenv("ORGCTL_BENCH_TRACE") != "" {
			for i := 0; i < 150; i += 10 {
				fmt.Fprintf(os.Stderr, "  request %3d at +%v", i, reqs[i].At.Sub(start).Round(time.Millisecond))
				for k := 1; k < 4 && i+150*k < len(reqs); k++ {
					fmt.Fprintf(os.Stderr, "  +%v", reqs[i+150*k].At.Sub(reqs[i].At.Add(time.Duration(k)*window)).Round(time.Millisecond))
				}
				fmt.Fprintln(os.Stderr)
			}
		}
	}
}

// buildOrgctl builds the product binary (the build cache makes it quick):
// its start-up, not the test binary's (which carries the test-only
// OpenAPI validator), is what the figures and the scripts are about.
// -buildvcs=false: the state of the tree it is built in is no part of it.
func buildOrgctl(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "orgctl")
	if out, err := exec.Command("go", "build", "-buildvcs=false", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// BenchmarkBulkMemory shows that a bulk job's memory does not grow with
// its file: peak RSS of a real run of 1,000 rows against the sandbox (its
// budget unlimited), and of --dry-run over 1,000 and 100,000 rows (every
// row read, mapped, checked and counted, as the run's first pass does).
// ORGCTL_BENCH_BIG=1 adds a real run of 100,000 rows (minutes: the ledger
// serialises its file updates).
// Run: go test -run '^$' -bench BulkMemory -benchtime 1x .
func BenchmarkBulkMemory(b *testing.B) {
	type run struct {
		name string
		rows int
		dry  bool
	}
	runs := []run{{"run-1000", 1000, false}, {"dry-run-1000", 1000, true}, {"dry-run-100000", 100000, true}}
	if os.Getenv("ORGCTL_BENCH_BIG") != "" {
		runs = append(runs, run{"run-100000", 100000, false})
	}
	for _, rn := range runs {
		b.Run(rn.name, func(b *testing.B) {
			for b.Loop() {
				r := newBudgetRig(b, 1<<30, time.Second, time.Second)
				r.bin = buildOrgctl(b)
				dir := b.TempDir()
				args := []string{"users", "create", "--from", writeUsersCSV(b, dir, "mem.example", rn.rows), "-o", "json"}
				if !rn.dry && rn.rows > 10000 {
					// The sandbox's create scans every user for the email; setting an
					// attribute of one user costs it the same at any size.
					args = []string{"users", "attributes", "set", "--from", writeAttributesCSV(b, dir, r, rn.rows), "-o", "json"}
				}
				if rn.dry {
					args = append(args, "--dry-run")
				}
				elapsed, rss, _ := r.runMeasured(b, args...)
				b.ReportMetric(rss, "MiB-peak-RSS")
				fmt.Fprintf(os.Stderr, "bulk %s: %d rows, peak RSS %.1f MiB, %v\n", rn.name, rn.rows, rss, elapsed.Round(time.Millisecond))
			}
		})
	}
}

// writeAttributesCSV writes n rows each setting a different attribute value
// of the sandbox's admin.
func writeAttributesCSV(t testing.TB, dir string, r *budgetRig, n int) string {
	t.Helper()
	out, stderr, code := r.run("users", "get", "admin@sandbox.example", "--jq", ".id")
	if code != 0 {
		t.Fatalf("users get: %s", stderr)
	}
	id := strings.TrimSpace(out)
	path := filepath.Join(dir, fmt.Sprintf("attrs-%d.csv", n))
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "user-id,name,value")
	for i := range n {
		fmt.Fprintf(w, "%s,department,dept-%d\n", id, i)
	}
	w.Flush()
	f.Close()
	return path
}
