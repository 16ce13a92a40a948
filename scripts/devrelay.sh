# Sourced by scripts/demo.sh and scripts/startup.sh: one way to run a seeded
# dev relay on a free loopback port for the length of a script.
#
#   devrelay_start NAME BIN
#
# makes a private work directory ($work) and roster home, starts
# `BIN dev relay --seed demo` in the background ($relay_pid), and waits (at
# most 20 s) until it prints its banner and accepts connections; then $url,
# $naddr and $banner (the banner's JSON line) are set. On exit the relay is
# stopped and $work removed. NAME prefixes the error messages.

devrelay_cleanup() {
	status=$?
	if [ -n "${relay_pid:-}" ] && kill -0 "$relay_pid" 2>/dev/null; then
		kill -TERM "$relay_pid" 2>/dev/null || true
		wait "$relay_pid" 2>/dev/null || true
	fi
	rm -rf "${work:?}"
	exit "$status"
}

devrelay_start() {
	local name=$1 bin=$2 hostport deadline
	work=$(mktemp -d "${TMPDIR:-/tmp}/roster-$name.XXXXXX")
	relay_pid=""
	trap devrelay_cleanup EXIT
	trap 'exit 130' INT TERM

	# A private roster home: the script never touches your cache or login.
	export ROSTER_HOME="$work/home"
	unset ROSTER_RELAYS ROSTER_SECRET_KEY

	# Port 0 lets the kernel pick a free loopback port; once it listens the
	# relay prints one JSON line with its URL and the demo repository's naddr.
	"$bin" dev relay --addr 127.0.0.1:0 --seed demo --json >"$work/relay.log" 2>"$work/relay.err" &
	relay_pid=$!

	url="" naddr=""
	deadline=$((SECONDS + 20))
	while [ "$SECONDS" -lt "$deadline" ]; do
		if ! kill -0 "$relay_pid" 2>/dev/null; then
			echo "$name: the dev relay exited early:" >&2
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
		echo "$name: the dev relay did not start listening within 20s:" >&2
		cat "$work/relay.log" "$work/relay.err" >&2
		exit 1
	fi
	banner=$(head -n1 "$work/relay.log")
}
