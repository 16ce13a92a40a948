package pcrelay

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay/grouprelay"
)

func TestOwnerChangeAppliesThePatchAndAdvancesOneRevision(t *testing.T) {
	f := newFixture(t)
	f.must(f.identity(100, nostr.Tag{"buzz-related-channel", chanA}))
	out := f.must(f.change(ownerSK, 1, []string{chanB}, []string{chanA}))
	if out[0].Kind != 47010 {
		t.Fatalf("the command event is not stored: %v", out)
	}
	st := f.state(out)
	if st.Revision != 2 || st.ChangeEvent != out[0].ID || fmt.Sprint(st.Document.RelatedChannels) != fmt.Sprint([]string{chanB}) {
		t.Fatalf("state %+v", st)
	}
}

func TestChangeNeedsAConnectionAuthenticatedAsItsSigner(t *testing.T) {
	f := newFixture(t)
	f.must(f.identity(100))
	e := f.changeEvent(ownerSK, 1, []string{chanA}, nil)
	_, err := f.ingest("", e)
	wantPrefix(t, err, "auth-required:")
	_, err = f.ingest(pub(t, otherSK), e)
	wantPrefix(t, err, "restricted:")
}

func TestChangeAgainstAnotherRevisionIsAConflict(t *testing.T) {
	f := newFixture(t)
	f.must(f.identity(100))
	for _, exp := range []int64{2, 7} {
		_, err := f.change(ownerSK, exp, []string{chanA}, nil)
		wantPrefix(t, err, "conflict:")
	}
}

func TestTwoDistinctCommandsAgainstOneRevisionCannotBothCommit(t *testing.T) {
	f := newFixture(t)
	f.must(f.identity(100))
	cmds := []*nostr.Event{f.changeEvent(ownerSK, 1, []string{chanA}, nil), f.changeEvent(ownerSK, 1, []string{chanB}, nil)}
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i, e := range cmds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = f.ingest(e.PubKey, e)
		}()
	}
	wg.Wait()
	ok, conflicts := 0, 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case strings.HasPrefix(err.Error(), "conflict:"):
			conflicts++
		}
	}
	if ok != 1 || conflicts != 1 {
		t.Fatalf("results %v", errs)
	}
	if r := f.pc.rows[key(f.env, f.coord())]; r.revision != 2 || len(r.related) != 1 {
		t.Fatalf("row %+v", r)
	}
}

func TestReplayingTheExactAcceptedCommandIsIdempotent(t *testing.T) {
	f := newFixture(t)
	f.must(f.identity(100))
	e := f.changeEvent(ownerSK, 1, []string{chanA}, nil)
	f.must(f.ingest(e.PubKey, e))
	for i := 0; i < 2; i++ {
		out, err := f.ingest(e.PubKey, e)
		if err != nil || len(out) != 0 {
			t.Fatalf("replay %d: %v %v", i, out, err)
		}
	}
	if r := f.pc.rows[key(f.env, f.coord())]; r.revision != 2 {
		t.Fatalf("replay advanced the revision to %d", r.revision)
	}
}

func TestRelayRefusesChangesTheClientMustRefuseToo(t *testing.T) {
	f := newFixture(t)
	f.must(f.identity(100, nostr.Tag{"buzz-channel", home}, nostr.Tag{"buzz-related-channel", chanA}))
	cases := map[string][2][]string{
		"add the home channel":         {{home}, nil},
		"add an already-related one":   {{chanA}, nil},
		"remove one that is not there": {nil, {chanB}},
	}
	for name, p := range cases {
		_, err := f.change(ownerSK, 1, p[0], p[1])
		if err == nil || !strings.HasPrefix(err.Error(), "invalid:") {
			t.Errorf("%s: %v", name, err)
		}
	}
	_, err := f.ingest(pub(t, ownerSK), sign(t, ownerSK, &nostr.Event{
		Kind: 47010, CreatedAt: 1, Tags: nostr.Tags{{"a", f.coord().String()}, {"expected-revision", "01"}},
		Content: `{"v":1,"patch":{"related_channels":{"add":["` + chanB + `"],"remove":[]}}}`}))
	wantPrefix(t, err, "invalid:")
}

func TestChangeToAnUnknownProjectIsRejected(t *testing.T) {
	f := newFixture(t)
	_, err := f.change(ownerSK, 1, []string{chanA}, nil)
	wantPrefix(t, err, "invalid:")
}

func TestHomeChannelOwnerOrAdminMayChangeAndRemovedAdminMayNot(t *testing.T) {
	f := newFixture(t)
	f.must(f.identity(100, nostr.Tag{"buzz-channel", home}))
	f.group(ownerSK, grouprelay.KindCreateGroup)
	f.group(ownerSK, grouprelay.KindPutUser, nostr.Tag{"p", pub(t, adminSK), "admin"})
	f.group(ownerSK, grouprelay.KindPutUser, nostr.Tag{"p", pub(t, otherSK), "moderator"})
	st := f.state(f.must(f.change(adminSK, 1, []string{chanA}, nil)))
	if st.Revision != 2 {
		t.Fatalf("admin change: %+v", st)
	}
	_, err := f.change(otherSK, 2, []string{chanB}, nil)
	wantPrefix(t, err, "restricted:")
	f.group(ownerSK, grouprelay.KindRemoveUser, nostr.Tag{"p", pub(t, adminSK)})
	_, err = f.change(adminSK, 2, []string{chanB}, nil)
	wantPrefix(t, err, "restricted:")
	if !strings.Contains(err.Error(), pub(t, ownerSK)) || !strings.Contains(err.Error(), home) {
		t.Fatalf("refusal does not say who may: %v", err)
	}
	// The project owner needs no channel role.
	f.must(f.change(ownerSK, 2, []string{chanB}, nil))
}

func TestArchivedOrDeletedHomeChannelGrantsNoAuthority(t *testing.T) {
	for _, end := range []string{"archived", "deleted"} {
		f := newFixture(t)
		f.must(f.identity(100, nostr.Tag{"buzz-channel", home}))
		f.group(ownerSK, grouprelay.KindCreateGroup)
		f.group(ownerSK, grouprelay.KindPutUser, nostr.Tag{"p", pub(t, adminSK), "admin"})
		if end == "archived" {
			f.group(ownerSK, grouprelay.KindEditMetadata, nostr.Tag{"name", "old"}, nostr.Tag{"archived", "true"})
		} else {
			f.group(ownerSK, grouprelay.KindDeleteGroup)
		}
		_, err := f.change(adminSK, 1, []string{chanA}, nil)
		wantPrefix(t, err, "restricted:")
	}
}

func TestProjectWithoutHomeChannelIsOwnerManagedOnTheRelay(t *testing.T) {
	f := newFixture(t)
	f.must(f.identity(100))
	f.group(adminSK, grouprelay.KindCreateGroup) // adminSK owns some channel, not the project's
	_, err := f.change(adminSK, 1, []string{chanA}, nil)
	wantPrefix(t, err, "restricted:")
}

// nip-pc.md: "The coordinate selects state only inside the host-bound
// community", and nip-29.md groups belong to the relay that hosts them. A
// group with the home channel's id in another community confers nothing.
func TestHomeChannelOfAnotherCommunityGrantsNoAuthority(t *testing.T) {
	f := newFixture(t)
	f.env.Community = "elsewhere.test"
	f.group(adminSK, grouprelay.KindCreateGroup) // adminSK owns a group with this id elsewhere
	f.env.Community = "relay.test"
	f.must(f.identity(100, nostr.Tag{"buzz-channel", home}))
	_, err := f.change(adminSK, 1, []string{chanA}, nil)
	wantPrefix(t, err, "restricted:")
}

// Idempotent replay is per community: "The coordinate selects state only
// inside the host-bound community." A command accepted in one community is
// judged afresh in another, where this project is unknown.
func TestReplayIsIdempotentOnlyInTheCommunityThatAcceptedIt(t *testing.T) {
	f := newFixture(t)
	f.must(f.identity(100))
	e := f.changeEvent(ownerSK, 1, []string{chanA}, nil)
	f.must(f.ingest(e.PubKey, e))
	f.env.Community = "elsewhere.test"
	_, err := f.ingest(e.PubKey, e)
	wantPrefix(t, err, "invalid:")
}
