package main

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/workspace/projects"
)

func TestProjectOwnerRelatesAChannel(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now() - 10)
	r := w.As(clitest.PcOwnerSK, "project", "relate", w.Coord.String(), strings.ToUpper(clitest.PcChanA), "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s %s", r.Code, r.Out, r.Err)
	}
	out := clitest.DecodeOut[report.ProjectChange](t, r)
	if out.ExpectedRevision != 1 || out.Revision != 2 || out.Retried || len(out.Published) != 1 ||
		fmt.Sprint(out.RelatedChannels) != fmt.Sprint([]string{clitest.PcChanA}) || out.Actor != w.Coord.Owner {
		t.Fatalf("result %+v", out)
	}
	st := w.Stored()
	if st.Revision != 2 || !st.Document.Related(clitest.PcChanA) || st.ChangeEvent != out.Published[0] || w.StoredCommands() != 1 {
		t.Fatalf("relay holds %+v", st)
	}
	// show reads the same state back, with the revision from the rev tag.
	show := clitest.DecodeOut[report.Project](t, w.As(clitest.PcOwnerSK, "project", "show", w.Coord.String(), "--json"))
	if show.Schema != "roster.project/v2" || show.Revision != 2 || show.Deleted || show.D != "demo:with:colons" ||
		show.Address != w.Coord.Address() || show.Projection.Signer != w.Relay.Self() || !show.Complete ||
		len(show.RelatedChannels) != 1 || show.Relays[0].Projection != "valid" {
		t.Fatalf("show %+v", show)
	}
}

func TestProjectUnrelateRemovesAChannel(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now()-10, nostr.Tag{"buzz-related-channel", clitest.PcChanA}, nostr.Tag{"buzz-related-channel", clitest.PcChanB})
	r := w.As(clitest.PcOwnerSK, "project", "unrelate", w.Coord.String(), clitest.PcChanA)
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, "revision 1 -> 2") {
		t.Fatalf("exit %d: %s %s", r.Code, r.Out, r.Err)
	}
	if st := w.Stored(); st.Document.Related(clitest.PcChanA) || !st.Document.Related(clitest.PcChanB) {
		t.Fatalf("relay holds %+v", st.Document)
	}
}

func TestProjectHomeChannelAdminRelatesAChannel(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now()-10, nostr.Tag{"buzz-channel", clitest.PcHome})
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	w.Group(clitest.PcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", clitest.PubOf(t, clitest.PcAdminSK), "admin"})
	r := w.As(clitest.PcAdminSK, "project", "relate", w.Coord.String(), clitest.PcChanA, "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s %s", r.Code, r.Out, r.Err)
	}
	if st := w.Stored(); st.Revision != 2 || !st.Document.Related(clitest.PcChanA) {
		t.Fatalf("relay holds %+v", st)
	}
}

func TestProjectRemovedAdminIsRefusedByRosterAndByTheRelay(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now()-10, nostr.Tag{"buzz-channel", clitest.PcHome})
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	w.Group(clitest.PcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", clitest.PubOf(t, clitest.PcAdminSK), "admin"})
	w.Group(clitest.PcOwnerSK, grouprelay.KindRemoveUser, nostr.Tag{"p", clitest.PubOf(t, clitest.PcAdminSK)})
	before := w.Stored()

	r := w.As(clitest.PcAdminSK, "project", "relate", w.Coord.String(), clitest.PcChanA, "--json")
	if r.Code != cmdutil.ExitRefused {
		t.Fatalf("exit %d: %s %s", r.Code, r.Out, r.Err)
	}
	e := clitest.DecodeOut[clitest.ErrorOut](t, r)
	if e.Error.Code != "not-authorized" || !strings.Contains(e.Error.Message, "nothing was published") ||
		!strings.Contains(e.Error.Message, gitstate.EncodeNpub(w.Coord.Owner)) || !strings.Contains(e.Error.Message, clitest.PcHome) {
		t.Fatalf("refusal does not say who may: %+v", e.Error)
	}
	// The owner created the home channel, so it is listed once with both roles;
	// the removed admin is not listed at all.
	may := fmt.Sprint(e.Error.Details["may_change"])
	if !strings.Contains(may, gitstate.EncodeNpub(w.Coord.Owner)+" (project owner, owner of home channel "+clitest.PcHome+")") ||
		strings.Contains(may, gitstate.EncodeNpub(clitest.PubOf(t, clitest.PcAdminSK))) {
		t.Fatalf("may_change %s", may)
	}
	if after := w.Stored(); after.EventID != before.EventID || w.StoredCommands() != 0 {
		t.Fatalf("the relay stored something new: %+v, %d commands", after, w.StoredCommands())
	}

	// Forced through with a hand-built, correctly signed command, the relay refuses too.
	p, _ := projects.NewPatch([]string{clitest.PcChanA}, nil)
	evt, err := projects.BuildChange(w.Coord, before.Revision, p, nostr.Now())
	if err != nil {
		t.Fatal(err)
	}
	err = w.Publish(clitest.PcAdminSK, evt)
	if err == nil || !strings.HasPrefix(err.Error(), "restricted:") {
		t.Fatalf("relay accepted a removed admin's change: %v", err)
	}
	if after := w.Stored(); after.EventID != before.EventID || w.StoredCommands() != 0 {
		t.Fatalf("the relay stored something new: %+v", after)
	}
}

func TestProjectStrangerIsToldWhoMayChangeAProjectWithoutHomeChannel(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now() - 10)
	r := w.As(clitest.PcStrangerSK, "project", "relate", w.Coord.String(), clitest.PcChanA)
	if r.Code != cmdutil.ExitRefused || !strings.Contains(r.Err, "no home channel") || !strings.Contains(r.Err, gitstate.EncodeNpub(w.Coord.Owner)) {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	if w.StoredCommands() != 0 {
		t.Fatal("a refused change reached the relay")
	}
}

func TestProjectChangesTheRelayWouldRejectAreRefusedBeforeSigning(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now()-10, nostr.Tag{"buzz-channel", clitest.PcHome}, nostr.Tag{"buzz-related-channel", clitest.PcChanA})
	cases := []struct {
		args []string
		code string
	}{
		{[]string{"relate", w.Coord.String(), clitest.PcHome}, "home-channel"},
		{[]string{"relate", w.Coord.String(), clitest.PcChanA}, "already-related"},
		{[]string{"unrelate", w.Coord.String(), clitest.PcChanB}, "not-related"},
	}
	for _, tc := range cases {
		r := w.As(clitest.PcOwnerSK, append(append([]string{"project"}, tc.args...), "--json")...)
		if r.Code != cmdutil.ExitRefused || clitest.DecodeOut[clitest.ErrorOut](t, r).Error.Code != tc.code {
			t.Errorf("%v: exit %d %s", tc.args, r.Code, r.Out)
		}
	}
	if w.StoredCommands() != 0 || w.Stored().Revision != 1 {
		t.Fatal("a refused change reached the relay")
	}
}

func TestProjectUsageErrors(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	owner := w.Coord.Owner
	cases := [][]string{
		{"project", "show", "30621:" + strings.ToUpper(owner) + ":demo"},
		{"project", "show", "30617:" + owner + ":demo"},
		{"project", "show", "30621:" + owner + ":" + strings.Repeat("x", 1025)},
		{"project", "relate", "30621:" + owner + ":demo", "not-a-uuid"},
		{"project", "relate", "30621:" + owner + ":demo"},
	}
	for _, args := range cases {
		if r := w.As(clitest.PcOwnerSK, args...); r.Code != cmdutil.ExitUsage {
			t.Errorf("%v: exit %d %s", args, r.Code, r.Err)
		}
	}
	// A change goes to exactly one relay: the community hosting the project.
	r := clitest.Invocation{Env: map[string]string{"ROSTER_SECRET_KEY": clitest.PcOwnerSK, "ROSTER_HOME": t.TempDir()}}.Roster(t,
		"project", "relate", w.Coord.String(), clitest.PcChanA, "--relay", w.Relay.URL(), "--relay", "ws://127.0.0.1:1")
	if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "exactly one --relay") {
		t.Fatalf("two relays: exit %d %s", r.Code, r.Err)
	}
}

func TestProjectShowUnknownProjectIsNotFound(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	r := w.As(clitest.PcOwnerSK, "project", "show", w.Coord.String(), "--json")
	if r.Code != cmdutil.ExitIncomplete || clitest.DecodeOut[clitest.ErrorOut](t, r).Error.Code != "not-found" {
		t.Fatalf("exit %d %s", r.Code, r.Out)
	}
}

func TestProjectShowIgnoresProjectionsNotSignedByRelaySelf(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	forged := &nostr.Event{Kind: 30623, CreatedAt: nostr.Now(), Tags: nostr.Tags{
		{"d", w.Coord.Address()}, {"a", w.Coord.String()}, {"rev", "99"},
		{"e", strings.Repeat("e", 64), "", "identity"}, {"e", strings.Repeat("c", 64), "", "change"}},
		Content: `{"v":1,"deleted":false,"project_tags":[["d","demo:with:colons"]]}`}
	if err := forged.Sign(clitest.PcStrangerSK); err != nil {
		t.Fatal(err)
	}
	w.Relay.Inject(forged)
	r := w.As(clitest.PcOwnerSK, "project", "show", w.Coord.String(), "--json")
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Out, "not the relay identity") {
		t.Fatalf("forged projection: exit %d %s", r.Code, r.Out)
	}
}

func TestProjectShowTwoProjectionsFromOneRelayAreAmbiguous(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now() - 10)
	cur := w.Stored()
	// A misbehaving relay serves a second, relay-signed projection for the address.
	old := w.Relay.Stored(nostr.Filter{IDs: []string{cur.EventID}})[0]
	dup := *old
	dup.CreatedAt--
	dup.Tags = append(nostr.Tags(nil), old.Tags...)
	dup.Tags[2] = nostr.Tag{"rev", "7"}
	if err := dup.Sign(clitest.PcRelaySK); err != nil {
		t.Fatal(err)
	}
	w.Relay.Inject(&dup)
	r := w.As(clitest.PcOwnerSK, "project", "show", w.Coord.String(), "--json")
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Out, `"projection": "ambiguous"`) {
		t.Fatalf("two candidates: exit %d %s", r.Code, r.Out)
	}
}

func TestProjectShowIgnoresAnUnknownStateVersion(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	evt := &nostr.Event{Kind: 30623, CreatedAt: nostr.Now(), Tags: nostr.Tags{
		{"d", w.Coord.Address()}, {"a", w.Coord.String()}, {"rev", "4"},
		{"e", strings.Repeat("e", 64), "", "identity"}, {"e", strings.Repeat("c", 64), "", "change"}},
		Content: `{"v":2,"deleted":false,"project_tags":[["d","demo:with:colons"]],"new_field":true}`}
	if err := evt.Sign(clitest.PcRelaySK); err != nil {
		t.Fatal(err)
	}
	w.Relay.Inject(evt)
	r := w.As(clitest.PcOwnerSK, "project", "show", w.Coord.String(), "--json")
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Out, `"projection": "unknown-version"`) {
		t.Fatalf("v2 projection: exit %d %s", r.Code, r.Out)
	}
}

func TestProjectConcurrentChangesAgainstOneRevision(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now() - 10)
	// Both commands read revision 1 before either is signed.
	var mu sync.Mutex
	arrived := 0
	all := make(chan struct{})
	w.BeforeSign = func(attempt int) {
		if attempt != 0 {
			return
		}
		mu.Lock()
		arrived++
		if arrived == 2 {
			close(all)
		}
		mu.Unlock()
		select {
		case <-all:
		case <-time.After(10 * time.Second):
		}
	}
	results := make([]clitest.Result, 2)
	var wg sync.WaitGroup
	for i, ch := range []string{clitest.PcChanA, clitest.PcChanB} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = w.As(clitest.PcOwnerSK, "project", "relate", w.Coord.String(), ch, "--json")
		}()
	}
	wg.Wait()
	if arrived != 2 {
		t.Fatalf("only %d changes reached the signing point", arrived)
	}
	retried, first := 0, 0
	for _, r := range results {
		if r.Code != cmdutil.ExitOK {
			t.Fatalf("exit %d: %s %s", r.Code, r.Out, r.Err)
		}
		out := clitest.DecodeOut[report.ProjectChange](t, r)
		if out.Retried {
			retried++
			if out.ExpectedRevision != 2 || out.Revision != 3 {
				t.Errorf("retry %+v", out)
			}
		} else {
			first++
			// The read-back may already show the retried change on top.
			if out.ExpectedRevision != 1 || out.Revision < 2 {
				t.Errorf("winner %+v", out)
			}
		}
	}
	if retried != 1 || first != 1 {
		t.Fatalf("%d retried, %d first", retried, first)
	}
	st := w.Stored()
	if st.Revision != 3 || !st.Document.Related(clitest.PcChanA) || !st.Document.Related(clitest.PcChanB) || w.StoredCommands() != 2 {
		t.Fatalf("relay holds %+v", st)
	}
}

func TestProjectConflictThatPersistsIsReported(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now() - 10)
	// Before each of roster's attempts, another change commits first.
	extra := []string{clitest.PcChanB, clitest.PcChanC}
	w.BeforeSign = func(attempt int) {
		w.RelateFirst(extra[attempt], nostr.Now())
	}
	r := w.As(clitest.PcOwnerSK, "project", "relate", w.Coord.String(), clitest.PcChanA, "--json")
	if r.Code != cmdutil.ExitRefused || clitest.DecodeOut[clitest.ErrorOut](t, r).Error.Code != "conflict" {
		t.Fatalf("exit %d %s", r.Code, r.Out)
	}
	if st := w.Stored(); st.Revision != 3 || st.Document.Related(clitest.PcChanA) {
		t.Fatalf("relay holds %+v", st)
	}
}

func TestProjectDeletionAndRecreationKeepRevisionsIncreasing(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	now := nostr.Now()
	w.Identity(now - 100)
	if r := w.As(clitest.PcOwnerSK, "project", "relate", w.Coord.String(), clitest.PcChanA); r.Code != cmdutil.ExitOK {
		t.Fatalf("relate: %d %s", r.Code, r.Err)
	}
	w.MustPublish(clitest.PcOwnerSK, &nostr.Event{Kind: 5, CreatedAt: now - 50, Tags: nostr.Tags{{"a", w.Coord.String()}}})
	show := clitest.DecodeOut[report.Project](t, w.As(clitest.PcOwnerSK, "project", "show", w.Coord.String(), "--json"))
	if !show.Deleted || show.Revision != 3 || len(show.ProjectTags) != 0 {
		t.Fatalf("after deletion %+v", show)
	}
	r := w.As(clitest.PcOwnerSK, "project", "relate", w.Coord.String(), clitest.PcChanB, "--json")
	if r.Code != cmdutil.ExitRefused || clitest.DecodeOut[clitest.ErrorOut](t, r).Error.Code != "project-deleted" {
		t.Fatalf("change to a deleted project: exit %d %s", r.Code, r.Out)
	}
	w.Identity(now - 10)
	show = clitest.DecodeOut[report.Project](t, w.As(clitest.PcOwnerSK, "project", "show", w.Coord.String(), "--json"))
	if show.Deleted || show.Revision != 4 || len(show.RelatedChannels) != 0 {
		t.Fatalf("after recreation %+v", show)
	}
	out := clitest.DecodeOut[report.ProjectChange](t, w.As(clitest.PcOwnerSK, "project", "relate", w.Coord.String(), clitest.PcChanB, "--json"))
	if out.Revision != 5 {
		t.Fatalf("after recreation and a change %+v", out)
	}
}

func TestProjectShowHumanOutputAndNaddr(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now()-10, nostr.Tag{"buzz-channel", clitest.PcHome}, nostr.Tag{"description", "a demo"})
	show := clitest.DecodeOut[report.Project](t, w.As(clitest.PcOwnerSK, "project", "show", w.Coord.String(), "--json"))
	r := w.As(clitest.PcOwnerSK, "project", "show", show.Naddr)
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, "revision      1") || !strings.Contains(r.Out, clitest.PcHome) ||
		!strings.Contains(r.Out, "a demo") {
		t.Fatalf("exit %d:\n%s%s", r.Code, r.Out, r.Err)
	}
}

func TestProjectShowOfflineReadsTheVerifiedCache(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now()-10, nostr.Tag{"buzz-related-channel", clitest.PcChanA})
	inv := clitest.Invocation{Env: map[string]string{"ROSTER_SECRET_KEY": clitest.PcOwnerSK, "ROSTER_HOME": t.TempDir()}}
	url := w.Relay.URL()
	if r := inv.Roster(t, "project", "show", w.Coord.String(), "--relay", url, "--json"); r.Code != cmdutil.ExitOK {
		t.Fatalf("online: exit %d %s", r.Code, r.Out)
	}
	w.Relay.Stop()
	r := inv.Roster(t, "project", "show", w.Coord.String(), "--relay", url, "--offline", "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("offline: exit %d %s %s", r.Code, r.Out, r.Err)
	}
	out := clitest.DecodeOut[report.Project](t, r)
	if out.Revision != 1 || out.Complete || out.Relays[0].Status != "cache" || out.Projection.Signer != w.Relay.Self() ||
		len(out.RelatedChannels) != 1 {
		t.Fatalf("offline %+v", out)
	}
	other := projects.Coordinate{Owner: w.Coord.Owner, D: "never-read"}
	r = inv.Roster(t, "project", "show", other.String(), "--relay", url, "--offline", "--json")
	if r.Code != cmdutil.ExitIncomplete || clitest.DecodeOut[clitest.ErrorOut](t, r).Error.Code != "offline-miss" {
		t.Fatalf("offline miss: exit %d %s", r.Code, r.Out)
	}
}

func TestProjectCommandsAuthenticateWhenTheRelayDemandsNIP42(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorldWith(t, true)
	w.Identity(nostr.Now()-10, nostr.Tag{"buzz-channel", clitest.PcHome})
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	w.Group(clitest.PcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", clitest.PubOf(t, clitest.PcAdminSK), "admin"})
	if r := w.As(clitest.PcAdminSK, "project", "relate", w.Coord.String(), clitest.PcChanA, "--json"); r.Code != cmdutil.ExitOK {
		t.Fatalf("relate: exit %d %s %s", r.Code, r.Out, r.Err)
	}
	if r := w.As(clitest.PcStrangerSK, "group", "show", clitest.PcHome, "--json"); r.Code != cmdutil.ExitOK {
		t.Fatalf("group show: exit %d %s %s", r.Code, r.Out, r.Err)
	}
	// Without any signer the relay's auth-required answer is reported, not hidden.
	r := clitest.Invocation{Env: map[string]string{"ROSTER_HOME": t.TempDir()}}.Roster(t,
		"project", "show", w.Coord.String(), "--relay", w.Relay.URL(), "--json")
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Out, "auth-required") {
		t.Fatalf("unauthenticated show: exit %d %s", r.Code, r.Out)
	}
	if st := w.Stored(); st.Revision != 2 {
		t.Fatalf("relay holds %+v", st)
	}
}

// Rule (NIP-PC: only the relay's self signs Project State): a projection
// for the same address signed by anyone else, next to the relay's valid
// one, is ignored; it does not make the relay's answer ambiguous.
func TestProjectShowIgnoresAForgeryBesideTheValidProjection(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Identity(nostr.Now() - 10)
	valid := w.Stored()
	forged := &nostr.Event{Kind: 30623, CreatedAt: nostr.Now() + 5, Tags: nostr.Tags{
		{"d", w.Coord.Address()}, {"a", w.Coord.String()}, {"rev", "99"},
		{"e", strings.Repeat("e", 64), "", "identity"}, {"e", strings.Repeat("c", 64), "", "change"}},
		Content: `{"v":1,"deleted":false,"project_tags":[["d","demo:with:colons"]]}`}
	if err := forged.Sign(clitest.PcStrangerSK); err != nil {
		t.Fatal(err)
	}
	w.Relay.Inject(forged)
	r := w.As(clitest.PcOwnerSK, "project", "show", w.Coord.String(), "--json")
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, valid.EventID) || strings.Contains(r.Out, forged.ID) {
		t.Fatalf("a forgery beside the valid projection: exit %d %s %s", r.Code, r.Out, r.Err)
	}
}
