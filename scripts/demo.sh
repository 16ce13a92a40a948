#!/usr/bin/env bash
# make demo: start a local dev relay seeded with a realistic repository, read it
# with `roster repo` and `roster repo --json`, then stop the relay. Needs no
# network: the relay listens on a free loopback port. The Makefile builds the
# binary first; this script builds nothing.
set -euo pipefail

bin=${1:-bin/roster}
if [ ! -x "$bin" ]; then
	echo "demo: $bin is not an executable; run \`make demo\` (it builds it first)" >&2
	exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/roster-demo.XXXXXX")
relay_pid=""
cleanup() {
	status=$?
	if [ -n "$relay_pid" ] && kill -0 "$relay_pid" 2>/dev/null; then
		kill -TERM "$relay_pid" 2>/dev/null || true
		wait "$relay_pid" 2>/dev/null || true
	fi
	rm -rf "$work"
	exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A private roster home: the demo never touches your cache or login.
export ROSTER_HOME="$work/home"
unset ROSTER_RELAYS ROSTER_SECRET_KEY

# Port 0 lets the kernel pick a free loopback port; once it listens the relay
# prints one JSON line with its URL and the demo repository's naddr.
"$bin" dev relay --addr 127.0.0.1:0 --seed demo --json >"$work/relay.log" 2>"$work/relay.err" &
relay_pid=$!

url="" naddr=""
deadline=$((SECONDS + 20))
while [ "$SECONDS" -lt "$deadline" ]; do
	if ! kill -0 "$relay_pid" 2>/dev/null; then
		echo "demo: the dev relay exited early:" >&2
		cat "$work/relay.log" "$work/relay.err" >&2
		relay_pid=""
		exit 1
	fi
	url=$(sed -n 's/.*"url":"\(wss\{0,1\}:\/\/[^"]*\)".*/\1/p' "$work/relay.log" | head -n1)
	naddr=$(sed -n 's/.*"naddr":"\(naddr1[0-9a-z]*\)".*/\1/p' "$work/relay.log" | head -n1)
	if [ -n "$url" ] && [ -n "$naddr" ]; then
		hostport=${url#*://}
		hostport=${hostport%%/*}
		# The printed URL means it listens; confirm the socket accepts anyway.
		if (exec 3<>"/dev/tcp/${hostport%:*}/${hostport##*:}") 2>/dev/null; then
			break
		fi
	fi
	url=""
	sleep 0.05
done
if [ -z "$url" ]; then
	echo "demo: the dev relay did not start listening within 20s:" >&2
	cat "$work/relay.log" "$work/relay.err" >&2
	exit 1
fi

echo "== dev relay at $url"
echo "== roster repo --repo $naddr --relay $url"
"$bin" repo --repo "$naddr" --relay "$url"
echo
echo "== roster repo --repo $naddr --relay $url --json"
"$bin" repo --repo "$naddr" --relay "$url" --json
