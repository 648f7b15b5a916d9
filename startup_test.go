package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkStartup prints orgctl's start-up time as a multiple of the floor:
// a cobra+viper program with 150 commands (../shared/bench/floor), built and
// timed in the same run. Run it with
//
//	go test -run '^$' -bench Startup -benchtime 1x .
//
// ORGCTL_BENCH_RUNS (default 30) sets how many alternating runs of each
// command the medians are taken over.
func BenchmarkStartup(b *testing.B) {
	src, err := filepath.Abs(filepath.Join("..", "shared", "bench", "floor"))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(src, "main.go")); err != nil {
		b.Skipf("the floor program is not here (%s): nothing to compare with", src)
	}
	runs := envInt(b, "ORGCTL_BENCH_RUNS", 30)
	dir := b.TempDir()
	orgctl := buildOrgctl(b)
	// The floor is built in a copy outside the repository, never inside it.
	floorDir := filepath.Join(dir, "floor-src")
	if out, err := exec.Command("cp", "-r", src, floorDir).CombinedOutput(); err != nil {
		b.Fatalf("copy the floor: %v\n%s", err, out)
	}
	floor := filepath.Join(dir, "floor")
	build := exec.Command("go", "build", "-o", floor, ".")
	build.Dir = floorDir
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("build the floor: %v\n%s", err, out)
	}
	env := append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		"XDG_STATE_HOME="+filepath.Join(dir, "state"), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
	pairs := []struct {
		name         string
		orgctl, base []string
	}{
		{"--version", []string{orgctl, "--version"}, []string{floor, "--version"}},
		{"users list --help", []string{orgctl, "users", "list", "--help"}, []string{floor, "fam1", "op1", "--help"}},
	}
	fmt.Println()
	for _, p := range pairs {
		var ratios, ms []float64
		minA, minF := time.Hour, time.Hour
		for i := 0; i < runs+2; i++ {
			a := timeRun(b, p.orgctl, env)
			f := timeRun(b, p.base, env)
			if i >= 2 { // the first runs warm the page cache
				ratios = append(ratios, a.Seconds()/f.Seconds())
				ms = append(ms, float64(a.Microseconds())/1000)
				minA, minF = min(minA, a), min(minF, f)
			}
		}
		r := median(ratios)
		fmt.Printf("%-20s orgctl / floor = %.2fx median of pairs, %.2fx of minimums (orgctl median %.1f ms, %d runs)\n",
			p.name, r, minA.Seconds()/minF.Seconds(), median(ms), runs)
		b.ReportMetric(r, map[string]string{"--version": "version", "users list --help": "help"}[p.name]+"-x-floor")
	}
}

func timeRun(b *testing.B, argv, env []string) time.Duration {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%v: %v\n%s", argv, err, out)
	}
	return time.Since(start)
}

// TestNothingOfOrgctlRunsBeforeMain holds orgctl's own packages to having
// no init work: every package whose init runs touches its code, data and
// heap pages on every command, --version included, which is most of what
// start-up costs beyond the libraries'. The runtime reports each package
// init that does work (GODEBUG=inittrace=1); tables that must be computed
// are built on first use instead.
func TestNothingOfOrgctlRunsBeforeMain(t *testing.T) {
	bin := buildOrgctl(t)
	cmd := exec.Command(bin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("orgctl --version: %v\n%s", err, stderr.String())
	}
	traced := 0
	for line := range strings.Lines(stderr.String()) {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != "init" {
			continue
		}
		traced++
		if f[1] == "github.com/orgctl/orgctl" || strings.HasPrefix(f[1], "github.com/orgctl/orgctl/") {
			t.Errorf("%s has init work, which runs before every command: %s", f[1], strings.TrimSpace(line))
		}
	}
	if traced == 0 {
		t.Fatalf("no init trace in orgctl's stderr, so nothing was checked:\n%s", stderr.String())
	}
}
