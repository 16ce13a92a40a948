#!/usr/bin/env bash
# Start-up cost (docs/PERFORMANCE.md, "Start-up"): a warm
# `roster repo --offline --json` against `git rev-parse HEAD`, each run N
# times (default 50) alternately, side by side; prints both medians and
# their ratio. Needs no network: a dev relay on a free loopback port serves
# the demo repository once, to fill a private cache; the timed runs read
# the cache only. Build first (`make build`); this script builds nothing.
#
#   scripts/startup.sh [bin/roster] [N]
set -euo pipefail

bin=${1:-bin/roster}
runs=${2:-50}
if [ ! -x "$bin" ]; then
	echo "startup: $bin is not an executable; run \`make build\` first" >&2
	exit 1
fi
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

. "$(dirname "$0")/devrelay.sh"
devrelay_start startup "$bin"

# A checkout for git, selecting the repository for roster (git config
# nostr.repo), so both commands start from the same directory.
git init -q "$work/co"
git -C "$work/co" -c user.name=t -c user.email=t@example.org commit -q --allow-empty -m root
git -C "$work/co" config nostr.repo "$naddr"
cd "$work/co"

# Fill the cache once; then the relay is no longer needed.
"$bin" repo --relay "$url" --json >/dev/null
kill -TERM "$relay_pid" && wait "$relay_pid" 2>/dev/null || true
relay_pid=""
"$bin" repo --offline --json >/dev/null # must succeed from the cache alone

# Alternate the two so load from other processes hits both alike.
# EPOCHREALTIME (bash 5) times each run without starting a timer process.
: >"$work/roster.ms"
: >"$work/git.ms"
for _ in $(seq "$runs"); do
	t0=$EPOCHREALTIME
	"$bin" repo --offline --json >/dev/null
	t1=$EPOCHREALTIME
	git rev-parse HEAD >/dev/null
	t2=$EPOCHREALTIME
	echo "$t0 $t1" | awk '{printf "%.3f\n", ($2-$1)*1000}' >>"$work/roster.ms"
	echo "$t1 $t2" | awk '{printf "%.3f\n", ($2-$1)*1000}' >>"$work/git.ms"
done
median() { sort -n "$1" | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }
r=$(median "$work/roster.ms")
g=$(median "$work/git.ms")
echo "roster repo --offline --json: median $r ms over $runs runs"
echo "git rev-parse HEAD:           median $g ms over $runs runs"
echo "$r $g" | awk '{printf "ratio: %.2fx\n", $1/$2}'
