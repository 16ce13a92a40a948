#!/usr/bin/env bash
# make demo: start a local dev relay seeded with a realistic repository, a
# workspace, a project and a group; read them with `roster repo`, `roster repo
# --json`, `roster workspace show`, `roster project show` and `roster group
# show`; draw the maintainer graph (`roster repo graph`), list the history
# (dave, removed, shows there), clone the announced Git server and link the
# clone, check a status by the lead and one by dave (removed), preview a membership change (--dry-run,
# nothing is published) and show one refused change with its explanation and
# exit code; then stop the relay. The seed gives every person a kind 0
# profile, so roster shows alice, bob, carol, dave and erin by name. Needs no
# network: the relay listens on a free loopback port. The Makefile builds the
# binary first; this script builds nothing.
set -euo pipefail

bin=${1:-bin/roster}
if [ ! -x "$bin" ]; then
	echo "demo: $bin is not an executable; run \`make demo\` (it builds it first)" >&2
	exit 1
fi
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac # the demo also runs it inside a clone

. "$(dirname "$0")/devrelay.sh"
devrelay_start demo "$bin"
line=$banner
field() { printf '%s' "$line" | sed -n "s/.*\"$1\":\"\([^\"]*\)\".*/\1/p"; }
project=$(field project_naddr)
group=$(field group_id)
erin=$(printf '%s' "$line" | sed -n 's/.*"name":"erin","role":"[^"]*","pubkey":"[0-9a-f]*","npub":"\(npub1[0-9a-z]*\)".*/\1/p')
clone_url=$(field clone_url)
by_maintainer=$(field status_by_maintainer)
by_removed=$(field status_by_removed_maintainer)
if [ -z "$project" ] || [ -z "$group" ] || [ -z "$erin" ] || [ -z "$clone_url" ] || [ -z "$by_maintainer" ] || [ -z "$by_removed" ]; then
	echo "demo: the dev relay's banner names no project, group, erin, clone URL or statuses:" >&2
	cat "$work/relay.log" >&2
	exit 1
fi
# The demo keys are public: sha256("roster-demo-<name>"). The workspace is
# read by its owner, alice, who also previews the change.
alice_key=$(printf 'roster-demo-alice' | sha256sum | cut -c1-64)
bob_key=$(printf 'roster-demo-bob' | sha256sum | cut -c1-64)

echo "== dev relay at $url"
echo "== roster repo --repo $naddr --relay $url   (as alice)"
ROSTER_SECRET_KEY=$alice_key "$bin" repo --repo "$naddr" --relay "$url"
echo
echo "== roster repo graph --history --repo $naddr --relay $url"
"$bin" repo graph --history --repo "$naddr" --relay "$url"
echo
echo "== roster repo history --repo $naddr --relay $url"
"$bin" repo history --repo "$naddr" --relay "$url"
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
echo "== git clone $clone_url roster-demo && cd roster-demo && git config nostr.repo $naddr && roster repo   (the announced URL, linked)"
git clone -q "$clone_url" "$work/roster-demo"
git -C "$work/roster-demo" config nostr.repo "$naddr"
(cd "$work/roster-demo" && git branch -a && git tag && "$bin" repo)
echo
echo "== roster repo check-event $by_maintainer --relay $url   (alice's status on carol's issue)"
"$bin" repo check-event "$by_maintainer" --relay "$url"
echo
echo "== roster repo check-event $by_removed --relay $url   (dave's, sent after alice removed him)"
set +e
"$bin" repo check-event "$by_removed" --relay "$url"
code=$?
set -e
echo "exit code: $code (5: not authorized)"
if [ "$code" -ne 5 ]; then
	echo "demo: dave's status was not judged unauthorized (exit $code, not 5)" >&2
	exit 1
fi
echo
echo "== roster repo edit --add-maintainer $erin --dry-run --repo $naddr --relay $url   (as alice: a preview, nothing is published)"
ROSTER_SECRET_KEY=$alice_key "$bin" repo edit --add-maintainer "$erin" --dry-run --repo "$naddr" --relay "$url"
echo
echo "== roster repo edit --add-maintainer $erin --repo $naddr --relay $url   (as bob, a co-maintainer: refused)"
set +e
ROSTER_SECRET_KEY=$bob_key "$bin" repo edit --add-maintainer "$erin" --repo "$naddr" --relay "$url"
code=$?
set -e
echo "exit code: $code (3: refused by a safety check; nothing was published)"
if [ "$code" -ne 3 ]; then
	echo "demo: the refused change exited $code, not 3" >&2
	exit 1
fi
