package hooks

import (
	"errors"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/workspace/testkeys"
)

type who struct{ sk, pk string }

func persona(name string) who {
	sk := testkeys.Named("hooks-test-", name)
	pk, _ := nostr.GetPublicKey(sk)
	return who{sk, pk}
}

var alice, bob, carol = persona("alice"), persona("bob"), persona("carol")

func (p who) sign(t *testing.T, kind int, at int64, tags ...nostr.Tag) *nostr.Event {
	t.Helper()
	return testkeys.Event(t, p.sk, kind, at, "", tags...)
}

func (p who) announce(t *testing.T, at int64, tags ...nostr.Tag) *nostr.Event {
	return p.sign(t, graph.KindAnnouncement, at, append([]nostr.Tag{{"d", "proj"}}, tags...)...)
}

func (p who) state(t *testing.T, at int64, main string) *nostr.Event {
	return p.sign(t, graph.KindState, at, nostr.Tag{"d", "proj"}, nostr.Tag{"refs/heads/main", main})
}

func roleTag(letter string, p who, bounds ...string) nostr.Tag {
	return append(nostr.Tag{letter, p.pk}, bounds...)
}

func maint(ps ...who) nostr.Tag {
	t := nostr.Tag{"maintainers"}
	for _, p := range ps {
		t = append(t, p.pk)
	}
	return t
}

const (
	oidBase  = "1111111111111111111111111111111111111111"
	oidState = "2222222222222222222222222222222222222222"
	oidAhead = "3333333333333333333333333333333333333333"
	oidSide  = "4444444444444444444444444444444444444444"
	zeros    = "0000000000000000000000000000000000000000"
)

// history: base <- state <- ahead, base <- side.
func ancestry(anc, desc string) (bool, error) {
	parents := map[string]string{oidState: oidBase, oidAhead: oidState, oidSide: oidBase}
	for c := desc; c != ""; c = parents[c] {
		if c == anc {
			return true, nil
		}
	}
	return false, nil
}

func input(t *testing.T, viewer who, events []*nostr.Event, pushed ...PushedRef) GuardInput {
	t.Helper()
	r := graph.Resolve(events, graph.NewCoordinate(alice.pk, "proj"), 5000, graph.Options{Viewer: viewer.pk})
	in := GuardInput{Resolution: r, Events: events, Viewer: viewer.pk, Complete: true, Pushed: pushed, IsAncestor: ancestry}
	if st := graph.SelectState(events, r); st != nil {
		in.StateEventID, in.StateAuthor = st.ID, st.PubKey
		in.StateRefs = map[string]string{}
		for _, tag := range st.Tags {
			if strings.HasPrefix(tag[0], "refs/") {
				in.StateRefs[tag[0]] = tag[1]
			}
		}
	}
	return in
}

func push(remoteRef, local string) PushedRef {
	return PushedRef{LocalRef: remoteRef, LocalOID: local, RemoteRef: remoteRef, RemoteOID: oidBase}
}

// The maintainer model: a maintainer whose self-role the lead no longer
// assigns is refused maintainer operations; the pre-push guard refuses
// their push with follow-lead and a new identifier as the ways out.
func TestGuardRefusesAMaintainerTheLeadRemoved(t *testing.T) {
	events := []*nostr.Event{
		alice.announce(t, 1000, roleTag("M", alice), roleTag("m", bob, "200"), roleTag("m", carol, "300", "400"), maint(alice, bob)),
		bob.announce(t, 1001, roleTag("M", alice, "200"), roleTag("m", bob, "200"), maint(alice, bob)),
		carol.announce(t, 1002, roleTag("M", alice, "300"), roleTag("m", carol, "300"), maint(alice, carol)),
	}
	d := Guard(input(t, carol, events, push("refs/heads/main", oidAhead)))
	if !d.Refuse || d.Finding.Reason != ReasonRemovedByLead || !strings.Contains(d.Finding.Message, graph.Npub(alice.pk)+" no longer lists you") {
		t.Fatalf("carol: %+v", d)
	}
	if len(d.Finding.Commands) != 2 || !d.Finding.Commands[0].Equal(graph.CommandFollowLead()) || !d.Finding.Commands[1].Has("--identifier") {
		t.Fatalf("ways out: %v", d.Finding.Commands)
	}
	if d := Guard(input(t, bob, events, push("refs/heads/main", oidAhead))); d.Refuse || d.Finding != nil {
		t.Fatalf("bob is not removed: %+v", d)
	}
	// Incomplete evidence: the same finding is a warning, and says why.
	in := input(t, carol, events, push("refs/heads/main", oidAhead))
	in.Complete, in.Unanswered = false, []string{"wss://slow.example"}
	d = Guard(in)
	if d.Refuse || d.Finding == nil || len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "wss://slow.example did not answer") ||
		!strings.Contains(d.Warnings[0], "not a Nostr publication") {
		t.Fatalf("incomplete: %+v", d)
	}
}

// A just-confirmed maintainer (confirmed, no state of their own) may push
// only refs that descend from the accepted state; a maintainer who has
// published state, or an invitee, is not checked.
func TestGuardRefusesAJustConfirmedMaintainersDivergedRefs(t *testing.T) {
	events := []*nostr.Event{
		alice.announce(t, 1000, roleTag("M", alice), roleTag("m", bob, "200"), roleTag("m", carol, "300"), maint(alice, bob, carol)),
		bob.announce(t, 1001, roleTag("M", alice, "200"), roleTag("m", bob, "200"), maint(alice, bob)),
		alice.state(t, 1003, oidState),
	}
	cases := []struct {
		name    string
		viewer  who
		pushed  PushedRef
		refuse  bool
		verdict string
	}{
		{"descends", bob, push("refs/heads/main", oidAhead), false, VerdictDescends},
		{"equal", bob, push("refs/heads/main", oidState), false, VerdictDescends},
		{"diverged", bob, push("refs/heads/main", oidSide), true, VerdictDiverged},
		{"behind", bob, push("refs/heads/main", oidBase), true, VerdictDiverged},
		{"deletes", bob, PushedRef{"(delete)", zeros, "refs/heads/main", oidState}, true, VerdictDeletes},
		{"a ref the state lacks", bob, push("refs/heads/topic", oidSide), false, ""},
		{"invited, not confirmed", carol, push("refs/heads/main", oidSide), false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := Guard(input(t, c.viewer, events, c.pushed))
			if d.Refuse != c.refuse {
				t.Fatalf("refuse %v, want %v: %+v", d.Refuse, c.refuse, d)
			}
			if c.verdict != "" && (len(d.Checked) != 1 || d.Checked[0].Verdict != c.verdict) {
				t.Fatalf("checked %+v, want %s", d.Checked, c.verdict)
			}
			if c.refuse && (d.Finding.Reason != ReasonNotDescended || !strings.Contains(d.Finding.Message, "refs/heads/main") ||
				len(d.Finding.Refs) != 1 || !strings.Contains(d.Finding.Message, short(oidState))) {
				t.Fatalf("finding %+v", d.Finding)
			}
		})
	}
	withOwn := append(events[:len(events):len(events)], bob.state(t, 1004, oidSide))
	if d := Guard(input(t, bob, withOwn, push("refs/heads/main", oidBase))); d.Refuse {
		t.Fatalf("bob published state of his own, so he is not just confirmed: %+v", d)
	}
	// Ancestry that cannot be established lets the ref through with a warning.
	in := input(t, bob, events, push("refs/heads/main", oidSide))
	in.IsAncestor = func(string, string) (bool, error) { return false, errors.New("shallow clone") }
	if d := Guard(in); d.Refuse || len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "shallow clone") {
		t.Fatalf("unknown ancestry: %+v", d)
	}
	// Nobody signed in: nothing to guard.
	in = input(t, bob, events, push("refs/heads/main", oidSide))
	in.Viewer = ""
	if d := Guard(in); d.Refuse || d.Finding != nil || len(d.Warnings) != 0 {
		t.Fatalf("no viewer: %+v", d)
	}
}

func TestParsePushedReadsGitsLines(t *testing.T) {
	got, err := ParsePushed(strings.NewReader("refs/heads/main " + oidAhead + " refs/heads/main " + oidState + "\n(delete) " + zeros + " refs/heads/old " + oidBase + "\n"))
	if err != nil || len(got) != 2 || got[0].RemoteRef != "refs/heads/main" || got[0].Deletes() || !got[1].Deletes() {
		t.Fatalf("%+v %v", got, err)
	}
	if _, err := ParsePushed(strings.NewReader("refs/heads/main only-two\n")); err == nil {
		t.Fatal("a malformed line must be an error")
	}
}

// Relay text never drives the terminal: an identifier with a line break in
// it is escaped in the refusal, whose only line breaks are roster's.
func TestGuardMessageEscapesTheIdentifier(t *testing.T) {
	id := "proj\nroster: forged line"
	ann := func(p who, at int64, tags ...nostr.Tag) *nostr.Event {
		return p.sign(t, graph.KindAnnouncement, at, append([]nostr.Tag{{"d", id}}, tags...)...)
	}
	events := []*nostr.Event{
		ann(alice, 1000, roleTag("M", alice), roleTag("m", carol, "300", "400"), maint(alice)),
		ann(carol, 1002, roleTag("M", alice, "300"), roleTag("m", carol, "300"), maint(alice, carol)),
	}
	r := graph.Resolve(events, graph.NewCoordinate(alice.pk, id), 5000, graph.Options{Viewer: carol.pk})
	d := Guard(GuardInput{Resolution: r, Events: events, Viewer: carol.pk, Complete: true})
	if !d.Refuse || strings.Contains(d.Finding.Message, "\n") || !strings.Contains(d.Finding.Message, `proj\nroster: forged line`) {
		t.Fatalf("finding %+v", d.Finding)
	}
}
