package main

import (
	"strings"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/suggest"
)

// checkNamedOneWay is the naming rule for one command's human output:
// every person whose profile is known reads "name (npub1…)" — the npub
// shortened on a terminal, whole in a pipe — and no line of the pipe shows
// one of their npubs bare, except where an npub must paste as it is: a
// suggested command, a coordinate ("npub1…/id") or a nostr:// URL.
func checkNamedOneWay(t *testing.T, inv clitest.Invocation, names map[string]string, args ...string) {
	t.Helper()
	tty := clitest.FitRun(t, inv, true, "200", args...)
	piped := clitest.FitRun(t, inv, false, "200", args...)
	for npub, name := range names {
		if !strings.Contains(tty, name+" ("+clitest.ShortNpubForTest(npub)+")") {
			t.Fatalf("%v on a terminal does not read %q:\n%s", args, name+" ("+clitest.ShortNpubForTest(npub)+")", tty)
		}
		if !strings.Contains(piped, name+" ("+npub+")") {
			t.Fatalf("%v in a pipe does not read %q:\n%s", args, name+" ("+npub+")", piped)
		}
		if l := bareNpubLine(piped, npub, name); l != "" {
			t.Fatalf("%v in a pipe shows %s (%s) bare: %q\n%s", args, name, npub, l, piped)
		}
	}
}

// bareNpubLine is the first line of out showing npub neither as
// "name (npub" nor inside a command, coordinate or URL; "" when none does.
func bareNpubLine(out, npub, name string) string {
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "roster ") || strings.Contains(line, "run: ") {
			continue
		}
		for rest, at := line, 0; ; {
			i := strings.Index(rest, npub)
			if i < 0 {
				break
			}
			before, after := line[:at+i], rest[i+len(npub):]
			if !strings.HasSuffix(before, name+" (") && !strings.HasPrefix(after, "/") && !strings.HasSuffix(before, "nostr://") &&
				!strings.Contains(before, "roster ") {
				return line
			}
			at += i + len(npub)
			rest = after
		}
	}
	return ""
}

// Rule (one naming rule everywhere): a person is "name (npub1…)" in every
// human output, the npub short on a terminal and whole in a pipe, for
// every read that shows people: roster repo, repo state, repo health,
// repo check-event, group show and members, workspace show and list,
// project show.
func TestEveryReadNamesPeopleOneWay(t *testing.T) {
	t.Parallel()
	t.Run("repo, repo state and repo health", func(t *testing.T) {
		t.Parallel()
		rl := devrelay.StartN(t, 1, devrelay.Options{})[0]
		clitest.Publish(t, rl.URL(), clitest.LeadShaped(t, "proj")...)
		clitest.Publish(t, rl.URL(), clitest.Alice.Profile(t, 50, map[string]any{"name": "alice"}), clitest.Bob.Profile(t, 50, map[string]any{"name": "bob"}))
		inv := clitest.Invocation{Env: clitest.TestEnv(t), Dir: t.TempDir()}
		relay := []string{"--repo", clitest.Alice.Naddr("proj"), "--relay", rl.URL(), "--timeout", "5s"}
		names := map[string]string{clitest.Alice.Npub(): "alice", clitest.Bob.Npub(): "bob"}
		checkNamedOneWay(t, inv, names, append([]string{"repo"}, relay...)...)
		checkNamedOneWay(t, inv, map[string]string{clitest.Bob.Npub(): "bob"}, append([]string{"repo", "state"}, relay...)...)
	})
	t.Run("repo health", func(t *testing.T) {
		t.Parallel()
		w := proseWorld(t, clitest.Alice)
		r := w.RunAs(false, clitest.Alice, 1000, "repo", "health")
		for _, want := range []string{"missing active roles: bob (" + clitest.Bob.Npub() + ")", "announcement of alice (" + clitest.Alice.Npub() + ") (you)"} {
			if !strings.Contains(r.Out, want) {
				t.Fatalf("repo health in a pipe lacks %q:\n%s%s", want, r.Out, r.Err)
			}
		}
		if l := bareNpubLine(r.Out, clitest.Bob.Npub(), "bob"); l != "" {
			t.Fatalf("bob bare: %q", l)
		}
	})
	t.Run("repo check-event", func(t *testing.T) {
		t.Parallel()
		w, issue := clitest.CheckEventWorld(t)
		status := clitest.Bob.Sign(t, 1631, 2500, nostr.Tag{"a", "30617:" + clitest.Alice.Pk + ":" + w.Id}, nostr.Tag{"e", issue.ID, "", "root"})
		w.Seed(status, clitest.Bob.Profile(t, 50, map[string]any{"name": "bob"}))
		inv := clitest.Invocation{Env: w.Home, Dir: w.Dir, Now: time.Unix(10_000, 0)}
		args := append([]string{"repo", "check-event", status.ID, "--timeout", "5s", "--home", w.Home["ROSTER_HOME"]}, clitest.RelayArgs(w.Relays)...)
		checkNamedOneWay(t, inv, map[string]string{clitest.Bob.Npub(): "bob"}, args...)
	})
	t.Run("group show and members, project show", func(t *testing.T) {
		t.Parallel()
		w := clitest.NewPCWorld(t)
		w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
		w.Group(clitest.PcOwnerSK, grouprelay.KindEditMetadata, nostr.Tag{"name", "home-room"})
		w.Group(clitest.PcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", clitest.PubOf(t, clitest.PcAdminSK), "admin"})
		w.Identity(nostr.Now()-10, nostr.Tag{"buzz-channel", clitest.PcHome})
		clitest.Publish(t, w.Relay.URL(), clitest.NamedProfile(t, clitest.PcOwnerSK, "olive"), clitest.NamedProfile(t, clitest.PcAdminSK, "adam"))
		inv := clitest.Invocation{Env: map[string]string{"ROSTER_SECRET_KEY": clitest.PcOwnerSK, "ROSTER_HOME": t.TempDir()}}
		relay := []string{"--relay", w.Relay.URL(), "--timeout", "5s"}
		owner, admin := graph.Npub(w.Coord.Owner), graph.Npub(clitest.PubOf(t, clitest.PcAdminSK))
		checkNamedOneWay(t, inv, map[string]string{admin: "adam"}, append([]string{"group", "show", clitest.PcHome}, relay...)...)
		checkNamedOneWay(t, inv, map[string]string{admin: "adam"}, append([]string{"group", "members", clitest.PcHome}, relay...)...)
		show := append([]string{"project", "show", w.Coord.String()}, relay...)
		checkNamedOneWay(t, inv, map[string]string{owner: "olive"}, show...)
		// The home channel by its relay-signed name: the id short on a
		// terminal, whole in a pipe.
		if tty := clitest.FitRun(t, inv, true, "200", show...); !strings.Contains(tty, "home channel  #home-room ("+clitest.PcHome[:4]+"…"+clitest.PcHome[len(clitest.PcHome)-4:]+")") {
			t.Fatalf("project show on a terminal does not name the home channel:\n%s", tty)
		}
		if piped := clitest.FitRun(t, inv, false, "200", show...); !strings.Contains(piped, "home channel  #home-room ("+clitest.PcHome+")") {
			t.Fatalf("project show in a pipe does not name the home channel:\n%s", piped)
		}
	})
	t.Run("workspace show and list", func(t *testing.T) {
		t.Parallel()
		// The profile is on the relay before the import names the owner:
		// a profile asked for and absent stays absent for an hour.
		w := clitest.NewSWWorld(t)
		if err := w.Relay.PublishAs(clitest.PubOf(t, clitest.SwOwnerSK), clitest.NamedProfile(t, clitest.SwOwnerSK, "owen")); err != nil {
			t.Fatal(err)
		}
		w.PublishLegacy()
		w.MustAs(clitest.SwOwnerSK, "workspace", "import")
		inv := clitest.Invocation{Env: map[string]string{"ROSTER_SECRET_KEY": clitest.SwOwnerSK, "ROSTER_HOME": w.Homes[clitest.SwOwnerSK]}}
		relay := []string{"--relay", w.Relay.URL(), "--timeout", "5s"}
		checkNamedOneWay(t, inv, map[string]string{w.OwnerNpub(): "owen"}, append([]string{"workspace", "show"}, relay...)...)
		checkNamedOneWay(t, inv, map[string]string{w.OwnerNpub(): "owen"}, append([]string{"workspace", "list"}, relay...)...)
	})
}

// proseWorld: Alice leads and invites Bob, both with profiles; her
// maintainers compatibility tag lists tag (leaving Bob out is a health
// finding naming him).
func proseWorld(t *testing.T, tag ...clitest.Person) *clitest.MutWorld {
	t.Helper()
	w := clitest.NewMutWorld(t, 1)
	w.Seed(clitest.Alice.Announce(t, w.Id, 100, clitest.Role("M", clitest.Alice), clitest.Role("m", clitest.Bob, "90"), clitest.MaintainersTag(tag...)),
		clitest.Alice.Profile(t, 50, map[string]any{"name": "alice"}),
		clitest.Bob.Profile(t, 50, map[string]any{"name": "bob"}))
	return w
}

// Rule (people are named from the message's parts, commands paste as they
// are): a refusal, a health finding and an advisory name each known person
// "name (npub1abc…wxyz)" on a terminal and "name (npub1…whole)" in a pipe,
// "(you)" for the signer, while the commands in them keep the full npub;
// --full keeps the npub whole; JSON carries the npubs alone and is the same
// on a terminal and in a pipe.
func TestMessagesNamePeopleFromTheirParts(t *testing.T) {
	t.Parallel()
	w, consistent := proseWorld(t, clitest.Alice), proseWorld(t, clitest.Alice, clitest.Bob)
	short := clitest.ShortNpubForTest(clitest.Bob.Npub())

	r := consistent.RunAs(true, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	if r.Code != cmdutil.ExitRefused {
		t.Fatalf("exit %d: %s%s", r.Code, r.Out, r.Err)
	}
	if !strings.Contains(r.Err, "you already list bob ("+short+")") {
		t.Fatalf("the refusal does not name bob:\n%s", r.Err)
	}
	for _, l := range strings.Split(r.Err, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "run:") && strings.Contains(l, "…") {
			t.Fatalf("a suggested command was shortened: %q", l)
		}
	}
	r = consistent.RunAs(false, clitest.Alice, 1000, "repo", "edit", "--add-maintainer", clitest.Bob.Npub())
	if !strings.Contains(r.Err, "you already list bob ("+clitest.Bob.Npub()+");") {
		t.Fatalf("a pipe does not name bob with his whole npub:\n%s", r.Err)
	}

	r = w.RunAs(true, clitest.Alice, 1000, "repo", "health")
	// Rows wrap to the terminal between words: compare the words.
	if flat := strings.Join(strings.Fields(r.Out), " "); !strings.Contains(flat, "missing active roles: bob ("+short+")") ||
		!strings.Contains(flat, "announcement of alice ("+clitest.ShortNpubForTest(clitest.Alice.Npub())+") (you)") {
		t.Fatalf("the health finding does not name the people:\n%s%s", r.Out, r.Err)
	}
	r = w.RunAs(true, clitest.Alice, 1000, "repo")
	if !strings.Contains(strings.Join(strings.Fields(r.Out), " "), "missing active roles: bob ("+short+")") {
		t.Fatalf("roster repo's health list does not name bob:\n%s", r.Out)
	}
	if !strings.Contains(r.Err, "missing active roles: bob ("+short+")") {
		t.Fatalf("the advisory does not name bob:\n%s", r.Err)
	}
	r = w.RunAs(true, clitest.Alice, 1000, "repo", "health", "--full")
	if !strings.Contains(strings.Join(strings.Fields(r.Out), " "), "missing active roles: bob ("+clitest.Bob.Npub()+")") || strings.Contains(r.Out, "…") {
		t.Fatalf("--full:\n%s", r.Out)
	}
	r = w.RunAs(false, clitest.Alice, 1000, "repo", "health")
	if !strings.Contains(r.Out, "missing active roles: bob ("+clitest.Bob.Npub()+")") {
		t.Fatalf("a pipe does not name bob:\n%s", r.Out)
	}
	tty := w.RunAs(true, clitest.Alice, 1000, "repo", "health", "--json")
	pipe := w.RunAs(false, clitest.Alice, 1000, "repo", "health", "--json")
	if tty.Out != pipe.Out || strings.Contains(tty.Out, "bob (") || !strings.Contains(tty.Out, "missing active roles: "+clitest.Bob.Npub()) {
		t.Fatalf("JSON changed, or names people:\n%s\n%s", tty.Out, pipe.Out)
	}
}

// Rule (a message names people by value, whatever its wording): the
// renderer names the person parts of a message and nothing else — a
// sentence worded in any way, with a command or a coordinate carrying an
// npub beside it, names the person and leaves the command and the
// coordinate whole; the plain text (JSON) has the npub alone.
func TestAMessageNamesItsPersonWhateverItsWording(t *testing.T) {
	t.Parallel()
	b, a := clitest.Bob.Npub(), clitest.Alice.Npub()
	pt := render.NewPeopleText(report.Names{b: report.Identity{Name: "bob"}}, a, true)
	for _, wording := range []string{"ask %s to run: %s (see %s)", "%s — whatever the rule says now; then %s; %s", "npub-looking %s%s%s"} {
		msg := suggest.Sayf(wording, suggest.Person(b),
			suggest.Run(suggest.Roster("repo", "edit", "--add-maintainer", b).ByPerson(a)), a+"/my-repo")
		got := pt.Text(msg)
		cmd := "roster repo edit --add-maintainer " + b + "  # run by " + clitest.ShortNpubForTest(a) + " (you)"
		want := strings.NewReplacer("%s", "\x00").Replace(wording)
		want = strings.Replace(want, "\x00", "bob ("+clitest.ShortNpubForTest(b)+")", 1)
		want = strings.Replace(want, "\x00", cmd, 1)
		want = strings.Replace(want, "\x00", a+"/my-repo", 1)
		if got != want {
			t.Errorf("rendered %q\n got %q\nwant %q", wording, got, want)
		}
		plain := strings.NewReplacer("%s", "\x00").Replace(wording)
		plain = strings.Replace(plain, "\x00", b, 1)
		plain = strings.Replace(plain, "\x00", "roster repo edit --add-maintainer "+b+"  # run by "+a, 1)
		plain = strings.Replace(plain, "\x00", a+"/my-repo", 1)
		if msg.String() != plain {
			t.Errorf("plain %q\n got %q\nwant %q", wording, msg.String(), plain)
		}
	}
}
