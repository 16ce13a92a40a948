package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// The ordinary world, end to end: three people, each with their own roster
// home and their own `git clone` of a smart-HTTP Git server (git
// http-backend) holding main, dev and release-1.x and the tags v1.0 and
// v1.1. Alice announces her clone; she invites Bob and Carol, who paste
// the lines roster printed for them (git clone, then accept inside the
// clone, which links it) — a plain clone, where dev and release-1.x exist
// only as remote-tracking branches, accepts with exit 0. Everyone installs
// the hooks roster's tip names; Bob pushes for real through them and
// publishes the state with the command `roster repo state` printed; Alice
// removes him, republishing that state (the handoff); Bob's next push is
// refused by his pre-push guard, naming follow-lead, while Carol's goes
// through. Apart from the entry points a user types (git clone, repo init,
// the invitee's npub in the printed add-maintainer template, the removal),
// every roster command run is one roster printed, parsed from its output.
func TestOrdinaryWorldJourney(t *testing.T) {
	t.Parallel()
	url, bare := smartHTTPServer(t)
	relay := devrelay.StartN(t, 1, devrelay.Options{})[0]
	clock := newSceneClock()
	a, b, c := newShellUser(t, clitest.Alice, clock), newShellUser(t, clitest.Bob, clock), newShellUser(t, clitest.Carol, clock)

	// Alice: her own clone, every branch checked out once (so they are hers).
	a.mustPaste("git clone -q " + url + " widget")
	a.mustPaste("cd widget && git checkout -q dev && git checkout -q release-1.x && git checkout -q main")
	init := a.mustPaste("roster repo init --relay " + relay.URL())
	ann := latestOf(t, relay, clitest.Alice.Pk, graph.KindAnnouncement)
	if cl := ann.Tags.Find("clone"); len(cl) != 2 || cl[1] != url {
		t.Fatalf("announced clone tag %v, want the smart-HTTP URL %s", cl, url)
	}
	a.mustPaste(printedCommand(t, init.Err, "tip:")) // roster hooks install …
	template := regexp.MustCompile(`\((roster repo edit --add-maintainer <npub>)\)`).FindStringSubmatch(init.Out)
	if template == nil {
		t.Fatalf("repo init printed no invitation template:\n%s", init.Out)
	}

	st := a.mustPaste("roster repo state")
	a.mustPaste(printedCommand(t, st.Out, "branch dev is only in this checkout"))
	state := latestOf(t, relay, clitest.Alice.Pk, graph.KindState)
	for _, ref := range []string{"refs/heads/main", "refs/heads/dev", "refs/heads/release-1.x", "refs/tags/v1.0", "refs/tags/v1.1"} {
		if len(state.Tags.Find(ref)) < 2 {
			t.Fatalf("alice's state lacks %s: %v", ref, state.Tags)
		}
	}

	// The invitations, and each invitee's paste in their own directory.
	for _, u := range []*shellUser{b, c} {
		add := a.mustPaste(strings.Replace(template[1], "<npub>", u.who.Npub(), 1))
		lines := printedAfter(t, add.Out, "pastes, in a terminal")
		if len(lines) != 2 || !strings.HasPrefix(lines[0], "git clone "+url+" ") || !strings.Contains(lines[1], "roster repo accept --repo nostr://") {
			t.Fatalf("%s's paste lines %q: want git clone of %s, then accept", u.who.Name, lines, url)
		}
		u.mustPaste(lines[0])
		acc := u.mustPaste(lines[1])
		if !strings.Contains(acc.Out, "this checkout is now linked to the repository: git config nostr.repo naddr1") {
			t.Fatalf("%s's accept did not link the clone:\n%s", u.who.Name, acc.Out)
		}
		if r := u.mustPaste("roster repo --json"); !strings.Contains(r.Out, `"status": "confirmed"`) && !strings.Contains(r.Out, `"status":"confirmed"`) {
			t.Fatalf("roster repo in %s's linked clone:\n%s", u.who.Name, r.Out)
		}
		hooks := u.mustPaste(printedCommand(t, acc.Err, "tip:"))
		if !strings.Contains(hooks.Out, "pre-push       installed") {
			t.Fatalf("%s's hooks:\n%s", u.who.Name, hooks.Out)
		}
		// The lead records the acceptance with the command accept printed.
		a.mustPaste(printedCommand(t, acc.Out, "record your acceptance"))
	}

	// Bob works: a real push through his pre-push hook, then the state.
	b.mustPaste("git commit -q --allow-empty -m bob-fix")
	bobTip := plainGit(t, b.cwd, "rev-parse", "HEAD")
	if p := b.paste("git push -q"); p.Code != 0 {
		t.Fatalf("bob's push, a confirmed maintainer's fast-forward, was refused:\n%s", p.Out)
	}
	if got := plainGit(t, bare, "rev-parse", "main"); got != bobTip {
		t.Fatalf("the server's main is %s after bob's push, want %s", got, bobTip)
	}
	bst := b.mustPaste("roster repo state")
	b.mustPaste(printedCommand(t, bst.Out, "main is 1 commit ahead of the published state"))
	if s := latestOf(t, relay, clitest.Bob.Pk, graph.KindState); s.Tags.Find("refs/heads/main")[1] != bobTip {
		t.Fatalf("bob's state names main %v, want %s", s.Tags.Find("refs/heads/main"), bobTip)
	}

	// Removal with handoff: Alice republishes Bob's state, signed by her.
	rm := a.mustPaste("roster repo edit --remove-maintainer " + clitest.Bob.Npub())
	if !strings.Contains(rm.Out, "the same repository state is published again, signed by you") {
		t.Fatalf("the removal does not hand the state over:\n%s", rm.Out)
	}
	if s := latestOf(t, relay, clitest.Alice.Pk, graph.KindState); s.Tags.Find("refs/heads/main")[1] != bobTip {
		t.Fatalf("alice's handoff state names main %v, want bob's %s", s.Tags.Find("refs/heads/main"), bobTip)
	}

	// Bob, removed, is stopped by his own hook; it names the way forward.
	b.mustPaste("git commit -q --allow-empty -m after-removal")
	refused := b.paste("git push -q")
	if refused.Code == 0 || !strings.Contains(refused.Out, "no longer lists you as a maintainer") {
		t.Fatalf("the removed maintainer's push: exit %d\n%s", refused.Code, refused.Out)
	}
	if got := plainGit(t, bare, "rev-parse", "main"); got != bobTip {
		t.Fatalf("the refused push reached the server: main %s", got)
	}
	b.mustPaste(printedCommand(t, refused.Out, "follow-lead"))

	// Carol, still a maintainer, catches up and pushes through her hook.
	c.mustPaste("git pull -q --ff-only")
	c.mustPaste("git commit -q --allow-empty -m carol-docs")
	carolTip := plainGit(t, c.cwd, "rev-parse", "HEAD")
	if p := c.paste("git push -q"); p.Code != 0 {
		t.Fatalf("carol's push was refused:\n%s", p.Out)
	}
	if got := plainGit(t, bare, "rev-parse", "main"); got != carolTip {
		t.Fatalf("the server's main is %s after carol's push, want %s", got, carolTip)
	}
}

// The same start with the clone URL GitHub shows: origin is scp-like
// (git@host:o/r.git) on a host that does not resolve. repo init announces
// it as ssh://; state publish cannot reach the server and says so in
// plain words, naming the host (exit 4), and publishes nothing.
func TestOrdinaryWorldSCPOriginOnAnUnreachableHost(t *testing.T) {
	t.Parallel()
	url, _ := smartHTTPServer(t)
	relay := devrelay.StartN(t, 1, devrelay.Options{})[0]
	a := newShellUser(t, clitest.Alice, newSceneClock())
	a.mustPaste("git clone -q " + url + " widget")
	a.mustPaste("cd widget && git remote set-url origin git@unreachable.invalid:o/widget.git")
	a.mustPaste("roster repo init --relay " + relay.URL())
	if cl := latestOf(t, relay, clitest.Alice.Pk, graph.KindAnnouncement).Tags.Find("clone"); len(cl) != 2 || cl[1] != "ssh://git@unreachable.invalid/o/widget.git" {
		t.Fatalf("clone tag %v, want ssh://git@unreachable.invalid/o/widget.git", cl)
	}
	st := a.mustPaste("roster repo state")
	pub := a.paste(printedCommand(t, st.Out, "branch main is only in this checkout"))
	if pub.Code != cmdutil.ExitIncomplete {
		t.Fatalf("state publish against an unreachable ssh host: exit %d, want %d\n%s%s", pub.Code, cmdutil.ExitIncomplete, pub.Out, pub.Err)
	}
	for _, want := range []string{"ssh://git@unreachable.invalid/o/widget.git", "host unknown", "nothing was published"} {
		if !strings.Contains(pub.Err, want) {
			t.Errorf("the refusal lacks %q:\n%s", want, pub.Err)
		}
	}
	if strings.Contains(pub.Err, "is not a file://") {
		t.Errorf("the refusal complains about the URL's form:\n%s", pub.Err)
	}
	if n := len(relay.Stored(nostr.Filter{Kinds: []int{graph.KindState}})); n != 0 {
		t.Fatalf("a refused publish stored %d state event(s)", n)
	}
}

// latestOf is pk's newest event of kind on the relay.
func latestOf(t *testing.T, r *devrelay.Relay, pk string, kind int) *nostr.Event {
	t.Helper()
	var best *nostr.Event
	for _, e := range r.Stored(nostr.Filter{Kinds: []int{kind}, Authors: []string{pk}}) {
		if best == nil || graph.Newer(e, best) {
			best = e
		}
	}
	if best == nil {
		t.Fatalf("the relay holds no kind %d event of %s", kind, pk)
	}
	return best
}
