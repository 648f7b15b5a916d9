#!/usr/bin/env bash
# Builds every release artefact of the current commit into dist/, with
# goreleaser in snapshot mode: nothing is published or tagged. Archives for
# linux, darwin and windows on amd64 and arm64 (zip for windows) holding
# man pages and bash/zsh/fish completions, checksums.txt, a CycloneDX SBOM
# per archive, a .deb and an .rpm, a Homebrew formula and a Scoop manifest.
# Then checks what it built. goreleaser and cyclonedx-gomod are run at
# fixed versions without touching go.mod (the script checks that).
# Extra arguments go to goreleaser (for example --parallelism 1).
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/release-tools.sh
start=$SECONDS
mod_before=$(cat go.mod go.sum | sha256sum)

# goreleaser runs cyclonedx-gomod by name: install it into a temporary bin.
tools=$(mktemp -d)
trap 'rm -rf "$tools"' EXIT
GOBIN="$tools" go install "$cyclonedx"
export PATH="$tools:$PATH"

# goreleaser reads the commit and its date only where `git ls-remote
# --get-url` names a remote; a clone without one gets the project's URL
# from the environment (this process only, the repository is untouched).
if [ -z "$(git remote)" ]; then
  export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.url GIT_CONFIG_VALUE_0=https://github.com/orgctl/orgctl.git
fi

go run "$goreleaser" release --snapshot --clean "$@"

if [ "$(cat go.mod go.sum | sha256sum)" != "$mod_before" ]; then
  echo "release-snapshot: go.mod or go.sum changed"; git diff --stat go.mod go.sum; exit 1
fi

# What a release must hold.
fail() { echo "release-snapshot: $*" >&2; exit 1; }
cd dist
archives=$(ls orgctl_*_{linux,darwin}_{amd64,arm64}.tar.gz orgctl_*_windows_{amd64,arm64}.zip 2>/dev/null | wc -l)
[ "$archives" = 6 ] || fail "want 6 archives, found $archives"
sha256sum -c --quiet checksums.txt || fail "checksums.txt does not match"
[ "$(ls orgctl_*.cdx.json | wc -l)" = 6 ] || fail "want an SBOM per archive"
ls orgctl_*_linux_amd64.deb orgctl_*_linux_amd64.rpm >/dev/null || fail "no .deb or .rpm"
[ -f homebrew/Formula/orgctl.rb ] || fail "no Homebrew formula"
[ -f scoop/orgctl.json ] || fail "no Scoop manifest"
listing=$(tar -tzf orgctl_*_linux_amd64.tar.gz)
for f in orgctl man/orgctl.1 man/orgctl-users-list.1 man/orgctl-bulk.7 completions/orgctl.bash completions/orgctl.zsh completions/orgctl.fish; do
  grep -qx "$f" <<<"$listing" || fail "the linux archive lacks $f"
done
bin=$(ls -d orgctl_linux_amd64*/orgctl)
go version -m "$bin" | grep -q $'\t-trimpath=true' || fail "$bin was not built with -trimpath"
"$bin" --version
echo "release-snapshot: done in $((SECONDS - start)) s; dist/ holds:"
ls -1 | grep -v '^orgctl_.*_v[0-9]$\|^orgctl_.*_v8.0$' || true
