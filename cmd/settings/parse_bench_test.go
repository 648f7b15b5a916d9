package settings

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// configWithKeys writes a config file of n unknown keys (plus one setting)
// under a fresh XDG_CONFIG_HOME: "k00001: 1" each, so 80,000 of them stay
// under the size cap.
func configWithKeys(tb testing.TB, n int) {
	tb.Helper()
	dir := tb.TempDir()
	tb.Setenv("XDG_CONFIG_HOME", dir)
	if err := os.MkdirAll(filepath.Join(dir, "orgctl"), 0o700); err != nil {
		tb.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("timeout: 45s\n")
	for i := range n {
		fmt.Fprintf(&b, "k%05d: 1\n", i)
	}
	if err := os.WriteFile(filepath.Join(dir, "orgctl", "config.yaml"), []byte(b.String()), 0o600); err != nil {
		tb.Fatal(err)
	}
}

func loadOnce(tb testing.TB) time.Duration {
	tb.Helper()
	start := time.Now()
	cfg, err := NewSources().Load(LoadOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	if cfg.Timeout != 45*time.Second {
		tb.Fatalf("timeout %v, want 45s from the file", cfg.Timeout)
	}
	return time.Since(start)
}

// BenchmarkConfigParseScaling loads a config file of 10,000 and of 80,000
// keys and reports the ratio of the times: 8 is linear (it was ~50 when
// viper merged keys pairwise and yaml checked duplicates pairwise).
//
//	go test -run '^$' -bench ConfigParseScaling -benchtime 3x ./cmd/settings/
func BenchmarkConfigParseScaling(b *testing.B) {
	var small, large time.Duration
	for b.Loop() {
		configWithKeys(b, 10_000)
		small += loadOnce(b)
		configWithKeys(b, 80_000)
		large += loadOnce(b)
	}
	b.ReportMetric(float64(large)/float64(small), "ratio-80k/10k")
	b.ReportMetric(float64(large.Milliseconds())/float64(b.N), "ms/80k-load")
}

func TestConfigFileOverTheCapIsRefused(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	os.MkdirAll(filepath.Join(dir, "orgctl"), 0o700)
	big := strings.Repeat("# padding\n", maxConfigSize/10+1)
	os.WriteFile(filepath.Join(dir, "orgctl", "config.yaml"), []byte(big), 0o600)
	_, err := NewSources().Load(LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), "larger than 1024 KiB") {
		t.Fatalf("got %v", err)
	}
	var se *Error
	if !errors.As(err, &se) {
		t.Fatalf("%T is not a settings error (exit 2)", err)
	}
}
