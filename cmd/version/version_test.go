package version

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestFromBuild(t *testing.T) {
	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	const rev = "0123456789abcdef0123456789abcdef01234567"
	for _, tc := range []struct {
		name                string
		bi                  *debug.BuildInfo
		link                [3]string
		want                Info
		wantCommitLine      string
		wantBuiltLineAbsent bool
	}{
		{name: "no build info", want: Info{Version: "dev"}, wantCommitLine: "commit:   unknown", wantBuiltLineAbsent: true},
		{name: "a checkout with changes",
			bi: &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
				Settings: vcs("vcs", "git", "vcs.revision", rev, "vcs.time", "2026-11-20T09:00:00Z", "vcs.modified", "true")},
			want:           Info{Version: "dev", Commit: rev, Modified: true, Date: "2026-11-20T09:00:00Z", GoVersion: "go1.26.8"},
			wantCommitLine: "commit:   " + rev + "-dirty"},
		{name: "a checkout, stamped with a pseudo-version",
			bi: &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261120090000-0123456789ab"},
				Settings: vcs("vcs.revision", rev, "vcs.time", "2026-11-20T09:00:00Z", "vcs.modified", "false")},
			want:           Info{Version: "v0.0.0-20261120090000-0123456789ab", Commit: rev, Date: "2026-11-20T09:00:00Z", GoVersion: "go1.26.8"},
			wantCommitLine: "commit:   " + rev},
		{name: "go install ...@v1.2.3", bi: &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}},
			want: Info{Version: "v1.2.3", GoVersion: "go1.26.8"}, wantCommitLine: "commit:   unknown", wantBuiltLineAbsent: true},
		{name: "a release: link-time values win",
			bi: &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-x"},
				Settings: vcs("vcs.revision", "ffff", "vcs.time", "2000-01-01T00:00:00Z")},
			link:           [3]string{"1.2.3", rev, "2026-11-20T09:00:00Z"},
			want:           Info{Version: "1.2.3", Commit: rev, Date: "2026-11-20T09:00:00Z", GoVersion: "go1.26.8"},
			wantCommitLine: "commit:   " + rev},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := fromBuild(tc.bi, tc.link[0], tc.link[1], tc.link[2])
			tc.want.Platform = runtime.GOOS + "/" + runtime.GOARCH
			if tc.want.GoVersion == "" {
				tc.want.GoVersion = runtime.Version()
			}
			if got != tc.want {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
			text := got.String()
			if !strings.HasPrefix(text, "orgctl version "+tc.want.Version+"\n") || !strings.Contains(text, "\n"+tc.wantCommitLine+"\n") ||
				strings.Contains(text, "built:") == tc.wantBuiltLineAbsent || !strings.HasSuffix(text, "platform: "+tc.want.Platform+"\n") {
				t.Errorf("text:\n%s", text)
			}
		})
	}
}

// A release build's link-time values reach --version and `version -o json`.
func TestLinkTimeValues(t *testing.T) {
	if testing.Short() {
		t.Skip("links a binary")
	}
	bin := filepath.Join(t.TempDir(), "orgctl")
	const pkg = "github.com/orgctl/orgctl/cmd/version"
	ldflags := "-X " + pkg + ".version=9.8.7 -X " + pkg + ".commit=abc123def -X " + pkg + ".date=2026-11-20T09:00:00Z"
	// -buildvcs=false: the tree this test runs in, clean or not, is not what it checks
	build := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-ldflags", ldflags, "-o", bin, "github.com/orgctl/orgctl")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := "orgctl version 9.8.7\ncommit:   abc123def\nbuilt:    2026-11-20T09:00:00Z\ngo:       " + runtime.Version() +
		"\nplatform: " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
	if string(out) != want {
		t.Errorf("--version:\n%s\nwant:\n%s", out, want)
	}
	cmd := exec.Command(bin, "version", "-o", "json")
	cmd.Env = append(cmd.Environ(), "HOME="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir())
	out, err = cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	var got Info
	if err := json.Unmarshal(out, &got); err != nil || got.Version != "9.8.7" || got.Commit != "abc123def" || got.Date != "2026-11-20T09:00:00Z" {
		t.Errorf("version -o json: %s (%v)", out, err)
	}
}
