#!/usr/bin/env bash
# make demo: start a local dev relay seeded with a realistic repository, a
# workspace, a project and a group; read them with `roster repo`, `roster repo
# --json`, `roster workspace show`, `roster project show` and `roster group
# show`; preview a membership change (--dry-run, nothing is published); then
# stop the relay. Needs no
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

line=$(head -n1 "$work/relay.log")
field() { printf '%s' "$line" | sed -n "s/.*\"$1\":\"\([^\"]*\)\".*/\1/p"; }
project=$(field project_naddr)
group=$(field group_id)
erin=$(printf '%s' "$line" | sed -n 's/.*"name":"erin","role":"[^"]*","pubkey":"[0-9a-f]*","npub":"\(npub1[0-9a-z]*\)".*/\1/p')
if [ -z "$project" ] || [ -z "$group" ] || [ -z "$erin" ]; then
	echo "demo: the dev relay's banner names no project, group or erin:" >&2
	cat "$work/relay.log" >&2
	exit 1
fi
# The demo keys are public: sha256("roster-demo-<name>"). The workspace is
# read by its owner, alice, who also previews the change.
alice_key=$(printf 'roster-demo-alice' | sha256sum | cut -c1-64)

echo "== dev relay at $url"
echo "== roster repo --repo $naddr --relay $url"
"$bin" repo --repo "$naddr" --relay "$url"
echo
echo "== roster repo --repo $naddr --relay $url --json"
"$bin" repo --repo "$naddr" --relay "$url" --json
echo
echo "== roster workspace show --relay $url   (as alice, its owner)"
ROSTER_SECRET_KEY=$alice_key "$bin" workspace show --relay "$url"
echo
echo "== roster project show $project --relay $url"
"$bin" project show "$project" --relay "$url"
echo
echo "== roster group show $group --relay $url"
"$bin" group show "$group" --relay "$url"
echo
echo "== roster repo edit --add-maintainer $erin --dry-run --repo $naddr --relay $url   (as alice: a preview, nothing is published)"
ROSTER_SECRET_KEY=$alice_key "$bin" repo edit --add-maintainer "$erin" --dry-run --repo "$naddr" --relay "$url"
