#!/bin/sh
# Runs the real-keyring tests against a Secret Service (gnome-keyring) in a
# private D-Bus session, so the keyring path is tested for real, not mocked.
# Installs nothing (.ci/run installs gnome-keyring, dbus, dbus-x11 and
# libsecret-tools). Without a Secret Service it prints SKIP and exits 0: CI
# must not fail for lack of one, but the log must show it.
set -u
cd "$(dirname "$0")/.."

for tool in dbus-run-session dbus-send gnome-keyring-daemon secret-tool; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "SKIP keyring tests: $tool is not installed"
		exit 0
	fi
done

# The packages whose tests call keyringtest.Need, found rather than listed,
# so that a new real-keyring test runs here without editing this script.
pkgs=$(grep -rl --include='*_test.go' 'keyringtest\.Need(' . | sed 's|/[^/]*$|/|' | sort -u | tr '\n' ' ')
if [ -z "$pkgs" ]; then
	echo "no test calls keyringtest.Need: nothing to run" >&2
	exit 1
fi
export ORGCTL_KEYRING_PKGS="$pkgs"

# The throwaway keyring lives in a temp dir, never in the user's own.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -m 700 "$scratch/data" "$scratch/run"

XDG_DATA_HOME="$scratch/data" XDG_RUNTIME_DIR="$scratch/run" \
dbus-run-session -- sh -c '
	log="$XDG_RUNTIME_DIR/gnome-keyring.log"
	# --unlock reads the new login keyring'"'"'s password from stdin.
	printf %s orgctl-ci | gnome-keyring-daemon --foreground --unlock --components=secrets >"$log" 2>&1 &
	daemon=$!
	tries=0
	until dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
		org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q "boolean true"; do
		tries=$((tries + 1))
		if [ "$tries" -ge 100 ] || ! kill -0 "$daemon" 2>/dev/null; then
			echo "SKIP keyring tests: org.freedesktop.secrets did not appear on the session bus within 10 s"
			echo "--- gnome-keyring-daemon output:"
			cat "$log"
			kill "$daemon" 2>/dev/null
			exit 0
		fi
		sleep 0.1
	done
	echo "Secret Service is up (gnome-keyring-daemon pid $daemon); running the real-keyring tests"
	ORGCTL_KEYRING_TEST=1 go test -race -count=1 -v -run Keyring $ORGCTL_KEYRING_PKGS
	status=$?
	kill "$daemon" 2>/dev/null
	wait "$daemon" 2>/dev/null
	exit $status
'
