package main

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/workspace/projects"
)

func TestProjectOwnerRelatesAChannel(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	w.identity(nostr.Now() - 10)
	r := w.as(pcOwnerSK, "project", "relate", w.coord.String(), strings.ToUpper(pcChanA), "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s %s", r.Code, r.Out, r.Err)
	}
	out := decodeOut[report.ProjectChange](t, r)
	if out.ExpectedRevision != 1 || out.Revision != 2 || out.Retried || len(out.Published) != 1 ||
		fmt.Sprint(out.RelatedChannels) != fmt.Sprint([]string{pcChanA}) || out.Actor != w.coord.Owner {
		t.Fatalf("result %+v", out)
	}
	st := w.stored()
	if st.Revision != 2 || !st.Document.Related(pcChanA) || st.ChangeEvent != out.Published[0] || w.storedCommands() != 1 {
		t.Fatalf("relay holds %+v", st)
	}
	// show reads the same state back, with the revision from the rev tag.
	show := decodeOut[report.Project](t, w.as(pcOwnerSK, "project", "show", w.coord.String(), "--json"))
	if show.Schema != "roster.project/v2" || show.Revision != 2 || show.Deleted || show.D != "demo:with:colons" ||
		show.Address != w.coord.Address() || show.Projection.Signer != w.relay.Self() || !show.Complete ||
		len(show.RelatedChannels) != 1 || show.Relays[0].Projection != "valid" {
		t.Fatalf("show %+v", show)
	}
}

func TestProjectUnrelateRemovesAChannel(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	w.identity(nostr.Now()-10, nostr.Tag{"buzz-related-channel", pcChanA}, nostr.Tag{"buzz-related-channel", pcChanB})
	r := w.as(pcOwnerSK, "project", "unrelate", w.coord.String(), pcChanA)
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, "revision 1 -> 2") {
		t.Fatalf("exit %d: %s %s", r.Code, r.Out, r.Err)
	}
	if st := w.stored(); st.Document.Related(pcChanA) || !st.Document.Related(pcChanB) {
		t.Fatalf("relay holds %+v", st.Document)
	}
}

func TestProjectHomeChannelAdminRelatesAChannel(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	w.identity(nostr.Now()-10, nostr.Tag{"buzz-channel", pcHome})
	w.group(pcOwnerSK, grouprelay.KindCreateGroup)
	w.group(pcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", pubOf(t, pcAdminSK), "admin"})
	r := w.as(pcAdminSK, "project", "relate", w.coord.String(), pcChanA, "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s %s", r.Code, r.Out, r.Err)
	}
	if st := w.stored(); st.Revision != 2 || !st.Document.Related(pcChanA) {
		t.Fatalf("relay holds %+v", st)
	}
}

func TestProjectRemovedAdminIsRefusedByRosterAndByTheRelay(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	w.identity(nostr.Now()-10, nostr.Tag{"buzz-channel", pcHome})
	w.group(pcOwnerSK, grouprelay.KindCreateGroup)
	w.group(pcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", pubOf(t, pcAdminSK), "admin"})
	w.group(pcOwnerSK, grouprelay.KindRemoveUser, nostr.Tag{"p", pubOf(t, pcAdminSK)})
	before := w.stored()

	r := w.as(pcAdminSK, "project", "relate", w.coord.String(), pcChanA, "--json")
	if r.Code != cmdutil.ExitRefused {
		t.Fatalf("exit %d: %s %s", r.Code, r.Out, r.Err)
	}
	e := decodeOut[errorOut](t, r)
	if e.Error.Code != "not-authorized" || !strings.Contains(e.Error.Message, "nothing was published") ||
		!strings.Contains(e.Error.Message, gitstate.EncodeNpub(w.coord.Owner)) || !strings.Contains(e.Error.Message, pcHome) {
		t.Fatalf("refusal does not say who may: %+v", e.Error)
	}
	// The owner created the home channel, so it is listed once with both roles;
	// the removed admin is not listed at all.
	may := fmt.Sprint(e.Error.Details["may_change"])
	if !strings.Contains(may, gitstate.EncodeNpub(w.coord.Owner)+" (project owner, owner of home channel "+pcHome+")") ||
		strings.Contains(may, gitstate.EncodeNpub(pubOf(t, pcAdminSK))) {
		t.Fatalf("may_change %s", may)
	}
	if after := w.stored(); after.EventID != before.EventID || w.storedCommands() != 0 {
		t.Fatalf("the relay stored something new: %+v, %d commands", after, w.storedCommands())
	}

	// Forced through with a hand-built, correctly signed command, the relay refuses too.
	p, _ := projects.NewPatch([]string{pcChanA}, nil)
	evt, err := projects.BuildChange(w.coord, before.Revision, p, nostr.Now())
	if err != nil {
		t.Fatal(err)
	}
	err = w.publish(pcAdminSK, evt)
	if err == nil || !strings.HasPrefix(err.Error(), "restricted:") {
		t.Fatalf("relay accepted a removed admin's change: %v", err)
	}
	if after := w.stored(); after.EventID != before.EventID || w.storedCommands() != 0 {
		t.Fatalf("the relay stored something new: %+v", after)
	}
}

func TestProjectStrangerIsToldWhoMayChangeAProjectWithoutHomeChannel(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	w.identity(nostr.Now() - 10)
	r := w.as(pcStrangerSK, "project", "relate", w.coord.String(), pcChanA)
	if r.Code != cmdutil.ExitRefused || !strings.Contains(r.Err, "no home channel") || !strings.Contains(r.Err, gitstate.EncodeNpub(w.coord.Owner)) {
		t.Fatalf("exit %d: %s", r.Code, r.Err)
	}
	if w.storedCommands() != 0 {
		t.Fatal("a refused change reached the relay")
	}
}

func TestProjectChangesTheRelayWouldRejectAreRefusedBeforeSigning(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	w.identity(nostr.Now()-10, nostr.Tag{"buzz-channel", pcHome}, nostr.Tag{"buzz-related-channel", pcChanA})
	cases := []struct {
		args []string
		code string
	}{
		{[]string{"relate", w.coord.String(), pcHome}, "home-channel"},
		{[]string{"relate", w.coord.String(), pcChanA}, "already-related"},
		{[]string{"unrelate", w.coord.String(), pcChanB}, "not-related"},
	}
	for _, tc := range cases {
		r := w.as(pcOwnerSK, append(append([]string{"project"}, tc.args...), "--json")...)
		if r.Code != cmdutil.ExitRefused || decodeOut[errorOut](t, r).Error.Code != tc.code {
			t.Errorf("%v: exit %d %s", tc.args, r.Code, r.Out)
		}
	}
	if w.storedCommands() != 0 || w.stored().Revision != 1 {
		t.Fatal("a refused change reached the relay")
	}
}

func TestProjectUsageErrors(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	owner := w.coord.Owner
	cases := [][]string{
		{"project", "show", "30621:" + strings.ToUpper(owner) + ":demo"},
		{"project", "show", "30617:" + owner + ":demo"},
		{"project", "show", "30621:" + owner + ":" + strings.Repeat("x", 1025)},
		{"project", "relate", "30621:" + owner + ":demo", "not-a-uuid"},
		{"project", "relate", "30621:" + owner + ":demo"},
	}
	for _, args := range cases {
		if r := w.as(pcOwnerSK, args...); r.Code != cmdutil.ExitUsage {
			t.Errorf("%v: exit %d %s", args, r.Code, r.Err)
		}
	}
	// A change goes to exactly one relay: the community hosting the project.
	r := invocation{Env: map[string]string{"ROSTER_SECRET_KEY": pcOwnerSK, "ROSTER_HOME": t.TempDir()}}.roster(t,
		"project", "relate", w.coord.String(), pcChanA, "--relay", w.relay.URL(), "--relay", "ws://127.0.0.1:1")
	if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Err, "exactly one --relay") {
		t.Fatalf("two relays: exit %d %s", r.Code, r.Err)
	}
}

func TestProjectShowUnknownProjectIsNotFound(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	r := w.as(pcOwnerSK, "project", "show", w.coord.String(), "--json")
	if r.Code != cmdutil.ExitIncomplete || decodeOut[errorOut](t, r).Error.Code != "not-found" {
		t.Fatalf("exit %d %s", r.Code, r.Out)
	}
}

func TestProjectShowIgnoresProjectionsNotSignedByRelaySelf(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	forged := &nostr.Event{Kind: 30623, CreatedAt: nostr.Now(), Tags: nostr.Tags{
		{"d", w.coord.Address()}, {"a", w.coord.String()}, {"rev", "99"},
		{"e", strings.Repeat("e", 64), "", "identity"}, {"e", strings.Repeat("c", 64), "", "change"}},
		Content: `{"v":1,"deleted":false,"project_tags":[["d","demo:with:colons"]]}`}
	if err := forged.Sign(pcStrangerSK); err != nil {
		t.Fatal(err)
	}
	w.relay.Inject(forged)
	r := w.as(pcOwnerSK, "project", "show", w.coord.String(), "--json")
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Out, "not the relay identity") {
		t.Fatalf("forged projection: exit %d %s", r.Code, r.Out)
	}
}

func TestProjectShowTwoProjectionsFromOneRelayAreAmbiguous(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	w.identity(nostr.Now() - 10)
	cur := w.stored()
	// A misbehaving relay serves a second, relay-signed projection for the address.
	old := w.relay.Stored(nostr.Filter{IDs: []string{cur.EventID}})[0]
	dup := *old
	dup.CreatedAt--
	dup.Tags = append(nostr.Tags(nil), old.Tags...)
	dup.Tags[2] = nostr.Tag{"rev", "7"}
	if err := dup.Sign(pcRelaySK); err != nil {
		t.Fatal(err)
	}
	w.relay.Inject(&dup)
	r := w.as(pcOwnerSK, "project", "show", w.coord.String(), "--json")
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Out, `"projection": "ambiguous"`) {
		t.Fatalf("two candidates: exit %d %s", r.Code, r.Out)
	}
}

func TestProjectShowIgnoresAnUnknownStateVersion(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	evt := &nostr.Event{Kind: 30623, CreatedAt: nostr.Now(), Tags: nostr.Tags{
		{"d", w.coord.Address()}, {"a", w.coord.String()}, {"rev", "4"},
		{"e", strings.Repeat("e", 64), "", "identity"}, {"e", strings.Repeat("c", 64), "", "change"}},
		Content: `{"v":2,"deleted":false,"project_tags":[["d","demo:with:colons"]],"new_field":true}`}
	if err := evt.Sign(pcRelaySK); err != nil {
		t.Fatal(err)
	}
	w.relay.Inject(evt)
	r := w.as(pcOwnerSK, "project", "show", w.coord.String(), "--json")
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Out, `"projection": "unknown-version"`) {
		t.Fatalf("v2 projection: exit %d %s", r.Code, r.Out)
	}
}

func TestProjectConcurrentChangesAgainstOneRevision(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	w.identity(nostr.Now() - 10)
	// Both commands read revision 1 before either is signed.
	var mu sync.Mutex
	arrived := 0
	all := make(chan struct{})
	w.beforeSign = func(attempt int) {
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
	results := make([]result, 2)
	var wg sync.WaitGroup
	for i, ch := range []string{pcChanA, pcChanB} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = w.as(pcOwnerSK, "project", "relate", w.coord.String(), ch, "--json")
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
		out := decodeOut[report.ProjectChange](t, r)
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
	st := w.stored()
	if st.Revision != 3 || !st.Document.Related(pcChanA) || !st.Document.Related(pcChanB) || w.storedCommands() != 2 {
		t.Fatalf("relay holds %+v", st)
	}
}

func TestProjectConflictThatPersistsIsReported(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	w.identity(nostr.Now() - 10)
	// Before each of roster's attempts, another change commits first.
	extra := []string{pcChanB, pcChanC}
	w.beforeSign = func(attempt int) {
		w.relateFirst(extra[attempt], nostr.Now())
	}
	r := w.as(pcOwnerSK, "project", "relate", w.coord.String(), pcChanA, "--json")
	if r.Code != cmdutil.ExitRefused || decodeOut[errorOut](t, r).Error.Code != "conflict" {
		t.Fatalf("exit %d %s", r.Code, r.Out)
	}
	if st := w.stored(); st.Revision != 3 || st.Document.Related(pcChanA) {
		t.Fatalf("relay holds %+v", st)
	}
}

func TestProjectDeletionAndRecreationKeepRevisionsIncreasing(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	now := nostr.Now()
	w.identity(now - 100)
	if r := w.as(pcOwnerSK, "project", "relate", w.coord.String(), pcChanA); r.Code != cmdutil.ExitOK {
		t.Fatalf("relate: %d %s", r.Code, r.Err)
	}
	w.mustPublish(pcOwnerSK, &nostr.Event{Kind: 5, CreatedAt: now - 50, Tags: nostr.Tags{{"a", w.coord.String()}}})
	show := decodeOut[report.Project](t, w.as(pcOwnerSK, "project", "show", w.coord.String(), "--json"))
	if !show.Deleted || show.Revision != 3 || len(show.ProjectTags) != 0 {
		t.Fatalf("after deletion %+v", show)
	}
	r := w.as(pcOwnerSK, "project", "relate", w.coord.String(), pcChanB, "--json")
	if r.Code != cmdutil.ExitRefused || decodeOut[errorOut](t, r).Error.Code != "project-deleted" {
		t.Fatalf("change to a deleted project: exit %d %s", r.Code, r.Out)
	}
	w.identity(now - 10)
	show = decodeOut[report.Project](t, w.as(pcOwnerSK, "project", "show", w.coord.String(), "--json"))
	if show.Deleted || show.Revision != 4 || len(show.RelatedChannels) != 0 {
		t.Fatalf("after recreation %+v", show)
	}
	out := decodeOut[report.ProjectChange](t, w.as(pcOwnerSK, "project", "relate", w.coord.String(), pcChanB, "--json"))
	if out.Revision != 5 {
		t.Fatalf("after recreation and a change %+v", out)
	}
}

func TestProjectShowHumanOutputAndNaddr(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	w.identity(nostr.Now()-10, nostr.Tag{"buzz-channel", pcHome}, nostr.Tag{"description", "a demo"})
	show := decodeOut[report.Project](t, w.as(pcOwnerSK, "project", "show", w.coord.String(), "--json"))
	r := w.as(pcOwnerSK, "project", "show", show.Naddr)
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, "revision      1") || !strings.Contains(r.Out, pcHome) ||
		!strings.Contains(r.Out, "a demo") {
		t.Fatalf("exit %d:\n%s%s", r.Code, r.Out, r.Err)
	}
}

func TestProjectShowOfflineReadsTheVerifiedCache(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	w.identity(nostr.Now()-10, nostr.Tag{"buzz-related-channel", pcChanA})
	inv := invocation{Env: map[string]string{"ROSTER_SECRET_KEY": pcOwnerSK, "ROSTER_HOME": t.TempDir()}}
	url := w.relay.URL()
	if r := inv.roster(t, "project", "show", w.coord.String(), "--relay", url, "--json"); r.Code != cmdutil.ExitOK {
		t.Fatalf("online: exit %d %s", r.Code, r.Out)
	}
	w.relay.Stop()
	r := inv.roster(t, "project", "show", w.coord.String(), "--relay", url, "--offline", "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("offline: exit %d %s %s", r.Code, r.Out, r.Err)
	}
	out := decodeOut[report.Project](t, r)
	if out.Revision != 1 || out.Complete || out.Relays[0].Status != "cache" || out.Projection.Signer != w.relay.Self() ||
		len(out.RelatedChannels) != 1 {
		t.Fatalf("offline %+v", out)
	}
	other := projects.Coordinate{Owner: w.coord.Owner, D: "never-read"}
	r = inv.roster(t, "project", "show", other.String(), "--relay", url, "--offline", "--json")
	if r.Code != cmdutil.ExitIncomplete || decodeOut[errorOut](t, r).Error.Code != "offline-miss" {
		t.Fatalf("offline miss: exit %d %s", r.Code, r.Out)
	}
}

func TestProjectCommandsAuthenticateWhenTheRelayDemandsNIP42(t *testing.T) {
	t.Parallel()
	w := newPCWorldWith(t, true)
	w.identity(nostr.Now()-10, nostr.Tag{"buzz-channel", pcHome})
	w.group(pcOwnerSK, grouprelay.KindCreateGroup)
	w.group(pcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", pubOf(t, pcAdminSK), "admin"})
	if r := w.as(pcAdminSK, "project", "relate", w.coord.String(), pcChanA, "--json"); r.Code != cmdutil.ExitOK {
		t.Fatalf("relate: exit %d %s %s", r.Code, r.Out, r.Err)
	}
	if r := w.as(pcStrangerSK, "group", "show", pcHome, "--json"); r.Code != cmdutil.ExitOK {
		t.Fatalf("group show: exit %d %s %s", r.Code, r.Out, r.Err)
	}
	// Without any signer the relay's auth-required answer is reported, not hidden.
	r := invocation{Env: map[string]string{"ROSTER_HOME": t.TempDir()}}.roster(t,
		"project", "show", w.coord.String(), "--relay", w.relay.URL(), "--json")
	if r.Code != cmdutil.ExitIncomplete || !strings.Contains(r.Out, "auth-required") {
		t.Fatalf("unauthenticated show: exit %d %s", r.Code, r.Out)
	}
	if st := w.stored(); st.Revision != 2 {
		t.Fatalf("relay holds %+v", st)
	}
}

// Rule (NIP-PC: only the relay's self signs Project State): a projection
// for the same address signed by anyone else, next to the relay's valid
// one, is ignored; it does not make the relay's answer ambiguous.
func TestProjectShowIgnoresAForgeryBesideTheValidProjection(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	w.identity(nostr.Now() - 10)
	valid := w.stored()
	forged := &nostr.Event{Kind: 30623, CreatedAt: nostr.Now() + 5, Tags: nostr.Tags{
		{"d", w.coord.Address()}, {"a", w.coord.String()}, {"rev", "99"},
		{"e", strings.Repeat("e", 64), "", "identity"}, {"e", strings.Repeat("c", 64), "", "change"}},
		Content: `{"v":1,"deleted":false,"project_tags":[["d","demo:with:colons"]]}`}
	if err := forged.Sign(pcStrangerSK); err != nil {
		t.Fatal(err)
	}
	w.relay.Inject(forged)
	r := w.as(pcOwnerSK, "project", "show", w.coord.String(), "--json")
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, valid.EventID) || strings.Contains(r.Out, forged.ID) {
		t.Fatalf("a forgery beside the valid projection: exit %d %s %s", r.Code, r.Out, r.Err)
	}
}
