package group_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/clitest"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/workspace/groups"
)

// Rule (nip-29.md 9021/9022, NIP-51 10009): an outsider's join to an open
// group is admitted by the relay (its own 9000), a second join sends
// nothing, --save adds the group to the 10009 keeping every other entry,
// and a leave is answered with the relay's 9001 and --save removes the entry.
func TestGroupJoinAndLeaveAnOpenGroup(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	w.Group(clitest.PcOwnerSK, grouprelay.KindEditMetadata, nostr.Tag{"name", "Home"})
	me := clitest.PubOf(t, clitest.PcStrangerSK)

	r := w.As(clitest.PcStrangerSK, "group", "join", clitest.PcHome, "--reason", "hello", "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d %s %s", r.Code, r.Out, r.Err)
	}
	out := clitest.DecodeOut[report.GroupRequest](t, r)
	if out.Schema != "roster.group.join/v1" || out.Outcome != groups.OutcomeJoined || !out.Sent || !out.Accepted || out.Code ||
		out.Before.Member || out.Before.Basis != "none" || !out.After.Member || out.After.Basis != "put-user" || out.Relay != w.Relay.URL() {
		t.Fatalf("%+v", out)
	}
	reqs := w.StoredKind(grouprelay.KindJoinRequest, me)
	if len(reqs) != 1 || reqs[0].ID != out.EventID || reqs[0].Content != "hello" || reqs[0].Tags.Find("code") != nil ||
		reqs[0].Tags.GetFirst([]string{"h", clitest.PcHome}) == nil {
		t.Fatalf("stored join requests %v", reqs)
	}
	puts := w.Relay.Stored(nostr.Filter{Kinds: []int{grouprelay.KindPutUser}, Authors: []string{w.Relay.Self()}, Tags: nostr.TagMap{"p": {me}}})
	if len(puts) != 1 || puts[0].ID != out.After.EventID {
		t.Fatalf("relay-signed 9000 %v", puts)
	}
	if out.List.Status != "offered" || len(out.List.Commands) != 1 || !strings.Contains(out.List.Commands[0], "roster group join '"+w.Relay.URL()+"'\\''"+clitest.PcHome+"' --save") {
		t.Fatalf("list %+v", out.List)
	}
	if got := w.StoredKind(groups.KindGroupsList, me); len(got) != 0 {
		t.Fatalf("a 10009 was published without --save: %v", got)
	}

	// My existing list: another group, an unknown tag and private content.
	prev := &nostr.Event{Kind: groups.KindGroupsList, CreatedAt: nostr.Now() - 100, Content: "private-items",
		Tags: nostr.Tags{{"group", "other", "wss://elsewhere.example", "Other"}, {"r", "wss://elsewhere.example"}}}
	w.MustPublish(clitest.PcStrangerSK, prev)
	again := clitest.DecodeOut[report.GroupRequest](t, w.As(clitest.PcStrangerSK, "group", "join", w.Relay.URL()+"'"+clitest.PcHome, "--save", "--json"))
	if again.Outcome != groups.OutcomeAlreadyMember || again.Sent || again.List.Status != "saved" || again.List.Previous != prev.ID {
		t.Fatalf("%+v", again)
	}
	if n := len(w.StoredKind(grouprelay.KindJoinRequest, me)); n != 1 {
		t.Fatalf("a member's join sent another request: %d stored", n)
	}
	list := w.StoredKind(groups.KindGroupsList, me)
	if len(list) != 1 || list[0].ID != again.List.EventID || list[0].Content != prev.Content {
		t.Fatalf("stored 10009 %v", list)
	}
	wantTags, _ := json.Marshal(append(prev.Tags, nostr.Tag{"group", clitest.PcHome, w.Relay.URL(), "Home"}))
	if gotTags, _ := json.Marshal(list[0].Tags); string(gotTags) != string(wantTags) {
		t.Fatalf("10009 tags\n got %s\nwant %s", gotTags, wantTags)
	}

	mine := clitest.DecodeOut[report.GroupMine](t, w.As(clitest.PcStrangerSK, "group", "list", "--mine", "--json"))
	if mine.Schema != "roster.group.mine/v1" || mine.EventID != list[0].ID || len(mine.Groups) != 2 || mine.Groups[1].ID != clitest.PcHome {
		t.Fatalf("%+v", mine)
	}

	left := clitest.DecodeOut[report.GroupRequest](t, w.As(clitest.PcStrangerSK, "group", "leave", clitest.PcHome, "--save", "--json"))
	if left.Schema != "roster.group.leave/v1" || left.Outcome != groups.OutcomeLeft || !left.Sent || left.After.Member || left.After.Basis != "remove-user" ||
		left.List.Status != "saved" {
		t.Fatalf("%+v", left)
	}
	if n := len(w.StoredKind(grouprelay.KindLeaveRequest, me)); n != 1 {
		t.Fatalf("stored leave requests: %d", n)
	}
	list = w.StoredKind(groups.KindGroupsList, me)
	prevTags, _ := json.Marshal(prev.Tags)
	if gotTags, _ := json.Marshal(list[0].Tags); len(list) != 1 || string(gotTags) != string(prevTags) || list[0].Content != prev.Content {
		t.Fatalf("10009 after leave %s", gotTags)
	}
	gone := clitest.DecodeOut[report.GroupRequest](t, w.As(clitest.PcStrangerSK, "group", "leave", clitest.PcHome, "--json"))
	if gone.Outcome != groups.OutcomeNotMember || gone.Sent || gone.List.Status != "unchanged" {
		t.Fatalf("%+v", gone)
	}
	text := w.As(clitest.PcStrangerSK, "group", "join", clitest.PcHome)
	if text.Code != cmdutil.ExitOK || !strings.Contains(text.Out, "joined") || !strings.Contains(text.Out, "admitted you: kind 9000") ||
		!strings.Contains(text.Out, "--save") {
		t.Fatalf("text:\n%s%s", text.Out, text.Err)
	}
}

// Rule (nip-29.md "Adding yourself to a group"): a closed group's join
// without a code is queued (accepted, not admitted: pending, no 10009
// change); a bad code is the relay's restricted: refusal, exit 3, nothing
// stored; an naddr's ?invite= code is sent in the code tag and admits.
func TestGroupJoinClosedGroupPendingRefusedAndInvited(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	w.Group(clitest.PcOwnerSK, grouprelay.KindEditMetadata, nostr.Tag{"name", "Closed"}, nostr.Tag{"closed"})
	me := clitest.PubOf(t, clitest.PcStrangerSK)

	p := clitest.DecodeOut[report.GroupRequest](t, w.As(clitest.PcStrangerSK, "group", "join", clitest.PcHome, "--save", "--json"))
	if p.Outcome != groups.OutcomePending || !p.Sent || !p.Accepted || p.After.Member || p.List.Status != "skipped" ||
		!strings.Contains(p.Explanation, "queued for an admin's approval") {
		t.Fatalf("%+v", p)
	}
	if len(w.StoredKind(groups.KindGroupsList, me)) != 0 {
		t.Fatal("a pending join saved the 10009")
	}

	r := w.As(clitest.PcStrangerSK, "group", "join", clitest.PcHome, "--code", "guess", "--json")
	e := clitest.ErrorBody(t, r)
	if r.Code != cmdutil.ExitRefused || e.Code != "relay-rejected" || e.Details["prefix"] != "restricted" || !strings.Contains(e.Message, "invite code is not valid") {
		t.Fatalf("exit %d %+v", r.Code, e)
	}
	if n := len(w.StoredKind(grouprelay.KindJoinRequest, me)); n != 1 {
		t.Fatalf("the refused request was stored: %d join requests", n)
	}

	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateInvite, nostr.Tag{"code", "welcome"})
	naddr, err := groups.Naddr(clitest.PcHome, w.Relay.URL(), w.Relay.Self(), "welcome")
	if err != nil {
		t.Fatal(err)
	}
	stale, _ := groups.Naddr(clitest.PcHome, w.Relay.URL(), clitest.PubOf(t, clitest.PcAdminSK), "")
	if r := w.As(clitest.PcStrangerSK, "group", "show", stale); r.Code != cmdutil.ExitOK || !strings.Contains(r.Err, "warning: the naddr names relay key "+clitest.PubOf(t, clitest.PcAdminSK)) {
		t.Fatalf("naddr of another key: exit %d %s", r.Code, r.Err)
	}
	if r := w.As(clitest.PcStrangerSK, "group", "join", naddr, "--code", "other"); r.Code != cmdutil.ExitUsage {
		t.Fatalf("two different codes: exit %d %s", r.Code, r.Err)
	}
	in := clitest.DecodeOut[report.GroupRequest](t, w.As(clitest.PcStrangerSK, "group", "join", naddr, "--json"))
	if in.Outcome != groups.OutcomeJoined || !in.Code {
		t.Fatalf("%+v", in)
	}
	var sent *nostr.Event
	for _, e := range w.StoredKind(grouprelay.KindJoinRequest, me) {
		if e.ID == in.EventID {
			sent = e
		}
	}
	if sent == nil || sent.Tags.GetFirst([]string{"code", "welcome"}) == nil {
		t.Fatalf("stored request %v", sent)
	}

	// The owner is the last owner: the relay refuses the leave, exit 3.
	r = w.As(clitest.PcOwnerSK, "group", "leave", clitest.PcHome, "--json")
	if e := clitest.ErrorBody(t, r); r.Code != cmdutil.ExitRefused || e.Details["prefix"] != "restricted" {
		t.Fatalf("exit %d %+v", r.Code, e)
	}
	if n := len(w.StoredKind(grouprelay.KindLeaveRequest, clitest.PubOf(t, clitest.PcOwnerSK))); n != 0 {
		t.Fatalf("refused leave stored: %d", n)
	}
}

// group members lists the relay-signed 39002 in order with each member's
// 39001 roles; the naddr and relay'id references name the group too.
func TestGroupMembersListsRolesFromTheRelaySignedLists(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	w.Group(clitest.PcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", clitest.PubOf(t, clitest.PcAdminSK), "admin"})
	w.Group(clitest.PcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", clitest.PubOf(t, clitest.PcStrangerSK)})
	naddr, _ := groups.Naddr(clitest.PcHome, w.Relay.URL(), w.Relay.Self(), "")
	for _, ref := range []string{clitest.PcHome, w.Relay.URL() + "'" + clitest.PcHome, naddr} {
		r := w.As(clitest.SwViewerSK, "group", "members", ref, "--json")
		if r.Code != cmdutil.ExitOK {
			t.Fatalf("%s: exit %d %s %s", ref, r.Code, r.Out, r.Err)
		}
		out := clitest.DecodeOut[report.GroupMembers](t, r)
		if out.Schema != "roster.group.members/v1" || out.ID != clitest.PcHome || len(out.Relays) != 1 {
			t.Fatalf("%+v", out)
		}
		var got []string
		for _, m := range out.Relays[0].Members {
			got = append(got, m.Npub[:10]+":"+strings.Join(m.Roles, "+"))
			if !m.Listed {
				t.Errorf("%s not listed", m.Npub)
			}
		}
		want := []string{w.NpubOf(clitest.PcOwnerSK)[:10] + ":owner", w.NpubOf(clitest.PcAdminSK)[:10] + ":admin", w.NpubOf(clitest.PcStrangerSK)[:10] + ":"}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("%s: members %v, want %v", ref, got, want)
		}
	}
	text := w.As(clitest.SwViewerSK, "group", "members", clitest.PcHome)
	if text.Code != cmdutil.ExitOK || !strings.Contains(text.Out, ": 3\n") || !strings.Contains(text.Out, "  admin\n") || !strings.Contains(text.Out, "  member\n") {
		t.Fatalf("text:\n%s", text.Out)
	}
	if r := w.As(clitest.SwViewerSK, "group", "members", "a'b'c"); r.Code != cmdutil.ExitUsage {
		t.Fatalf("bad reference: exit %d", r.Code)
	}
}

// Rule (nip-29.md "Subgroups"): group show draws the relay's subgroup tree
// from its signed 39000s (parent and ordered child tags), marking the group.
func TestGroupShowDrawsTheSubgroupTree(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	for _, id := range []string{"tech", "nostr", "nip29"} {
		w.MustPublish(clitest.PcOwnerSK, &nostr.Event{Kind: grouprelay.KindCreateGroup, CreatedAt: nostr.Now(), Tags: nostr.Tags{{"h", id}}})
	}
	edit := func(id string, tags ...nostr.Tag) {
		w.MustPublish(clitest.PcOwnerSK, &nostr.Event{Kind: grouprelay.KindEditMetadata, CreatedAt: nostr.Now(), Tags: append(nostr.Tags{{"h", id}}, tags...)})
	}
	edit("tech", nostr.Tag{"name", "Tech"})
	edit("nostr", nostr.Tag{"name", "Nostr"}, nostr.Tag{"parent", "tech"})
	edit("nip29", nostr.Tag{"name", "NIP-29"}, nostr.Tag{"parent", "nostr"})
	r := w.As(clitest.PcOwnerSK, "group", "show", "nostr")
	want := "  subgroups (this relay's tree; * is this group)\n      tech  Tech\n      * nostr  Nostr\n          nip29  NIP-29\n"
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, want) {
		t.Fatalf("exit %d\n%s", r.Code, r.Out)
	}
	g := clitest.DecodeOut[report.Group](t, w.As(clitest.PcOwnerSK, "group", "show", "nostr", "--json")).Relays[0].Group.Metadata
	if g.Parent != "tech" || strings.Join(g.Children, ",") != "nip29" {
		t.Fatalf("%+v", g)
	}
	if r := w.As(clitest.PcOwnerSK, "group", "show", "nip29"); !strings.Contains(r.Out, "* nip29") {
		t.Fatalf("%s", r.Out)
	}
}

// A relay that demands NIP-42 for every read and write gets the joiner's
// authentication, and the join is judged as on any relay; an outsider's
// leave sends nothing.
func TestGroupJoinOnARelayThatRequiresAuth(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorldWith(t, true)
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	r := w.As(clitest.PcAdminSK, "group", "join", clitest.PcHome, "--json")
	if out := clitest.DecodeOut[report.GroupRequest](t, r); r.Code != cmdutil.ExitOK || out.Outcome != groups.OutcomeJoined {
		t.Fatalf("exit %d %+v %s", r.Code, out, r.Err)
	}
	r = w.As(clitest.PcStrangerSK, "group", "leave", clitest.PcHome, "--json")
	if out := clitest.DecodeOut[report.GroupRequest](t, r); r.Code != cmdutil.ExitOK || out.Outcome != groups.OutcomeNotMember || out.Sent {
		t.Fatalf("exit %d %+v", r.Code, out)
	}
	if n := len(w.StoredKind(grouprelay.KindLeaveRequest, clitest.PubOf(t, clitest.PcStrangerSK))); n != 0 {
		t.Fatalf("stored %d leave requests", n)
	}
}

// Rule (nip-29.md kind 9021: a rejection SHOULD explain whether it is
// final or pending review; NIP-01 OK prefixes): a refusal saying the
// request is pending is the outcome pending (exit 0); restricted: and
// auth-required: are exit 3 with the relay's words, rate-limited: exit 4.
func TestGroupJoinMapsTheRelaysRefusals(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	for _, c := range []struct {
		reason, code, prefix string
		exit                 int
	}{
		{"restricted: your request is pending review by an admin", "", "", cmdutil.ExitOK},
		{"restricted: payment required", "relay-rejected", "restricted", cmdutil.ExitRefused},
		{"auth-required: we only admit authenticated users", "relay-rejected", "auth-required", cmdutil.ExitRefused},
		{"rate-limited: slow down", "rate-limited", "", cmdutil.ExitIncomplete},
	} {
		w.Relay.SetMisbehaviour(devrelay.Misbehaviour{RefuseEvent: func(evt *nostr.Event) string {
			if evt.Kind == grouprelay.KindJoinRequest {
				return c.reason
			}
			return ""
		}})
		r := w.As(clitest.PcStrangerSK, "group", "join", clitest.PcHome, "--json")
		if r.Code != c.exit {
			t.Fatalf("%q: exit %d %s", c.reason, r.Code, r.Out)
		}
		if c.exit == cmdutil.ExitOK {
			out := clitest.DecodeOut[report.GroupRequest](t, r)
			if out.Outcome != groups.OutcomePending || out.Accepted || out.Message != c.reason || !strings.Contains(out.Explanation, "pending review") {
				t.Fatalf("%+v", out)
			}
			continue
		}
		e := clitest.ErrorBody(t, r)
		if e.Code != c.code || c.prefix != "" && e.Details["prefix"] != c.prefix || !strings.Contains(e.Message, c.reason) {
			t.Fatalf("%q: %+v", c.reason, e)
		}
	}
	if n := len(w.StoredKind(grouprelay.KindJoinRequest, clitest.PubOf(t, clitest.PcStrangerSK))); n != 0 {
		t.Fatalf("refused requests stored: %d", n)
	}
}

// Rule (nip-29.md "Forking a group": the same id on two relays is two
// groups): with two relays hosting the id, join names neither on its own:
// exit 2 with one command per relay, and nothing is sent to either.
func TestGroupJoinRefusesToPickAForkItself(t *testing.T) {
	t.Parallel()
	a, b := clitest.NewPCWorld(t), clitest.NewPCWorld(t)
	a.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	b.Group(clitest.PcAdminSK, grouprelay.KindCreateGroup)
	env := map[string]string{"ROSTER_SECRET_KEY": clitest.PcStrangerSK, "ROSTER_HOME": t.TempDir()}
	r := clitest.Invocation{Env: env}.Roster(t, "group", "join", clitest.PcHome, "--relay", a.Relay.URL(), "--relay", b.Relay.URL(), "--timeout", "5s", "--json")
	e := clitest.ErrorBody(t, r)
	if r.Code != cmdutil.ExitUsage || e.Code != groups.CodeAmbiguous || len(e.Commands) != 2 ||
		!strings.Contains(e.Commands[0]+e.Commands[1], a.Relay.URL()) || !strings.Contains(e.Commands[0]+e.Commands[1], b.Relay.URL()) {
		t.Fatalf("exit %d %+v", r.Code, e)
	}
	for _, w := range []*clitest.PcWorld{a, b} {
		if n := len(w.StoredKind(grouprelay.KindJoinRequest, clitest.PubOf(t, clitest.PcStrangerSK))); n != 0 {
			t.Fatalf("a join was sent: %d", n)
		}
	}
	r = clitest.Invocation{Env: env}.Roster(t, "group", "join", b.Relay.URL()+"'"+clitest.PcHome, "--relay", a.Relay.URL(), "--timeout", "5s", "--json")
	if out := clitest.DecodeOut[report.GroupRequest](t, r); r.Code != cmdutil.ExitOK || out.Relay != b.Relay.URL() || len(a.StoredKind(grouprelay.KindJoinRequest, clitest.PubOf(t, clitest.PcStrangerSK))) != 0 {
		t.Fatalf("exit %d %+v", r.Code, out)
	}
}

// Rule (nip-29.md: a join answered duplicate: means already a member; the
// 39002 may be partial): a relay that answers duplicate: while what it
// serves shows no membership (its 39002 and 9000s withheld) is
// already-member, exit 0, with a note naming the missing 39002; where the
// latest 9001 it serves removes the person, the note names that 9001.
// Neither is read as non-membership.
func TestGroupJoinAnsweredDuplicateIsAMemberAndNotesTheDisagreement(t *testing.T) {
	t.Parallel()
	w := clitest.NewPCWorld(t)
	w.Group(clitest.PcOwnerSK, grouprelay.KindCreateGroup)
	me := clitest.PubOf(t, clitest.PcStrangerSK)
	if r := w.As(clitest.PcStrangerSK, "group", "join", clitest.PcHome, "--json"); r.Code != cmdutil.ExitOK {
		t.Fatalf("first join: exit %d %s %s", r.Code, r.Out, r.Err)
	}
	w.Relay.SetMisbehaviour(devrelay.Misbehaviour{Withhold: func(e *nostr.Event) bool {
		return e.Kind == grouprelay.KindPutUser || e.Kind == groups.KindMembers
	}})
	r := w.As(clitest.PcStrangerSK, "group", "join", clitest.PcHome, "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("join answered duplicate: exit %d %s %s", r.Code, r.Out, r.Err)
	}
	out := clitest.DecodeOut[report.GroupRequest](t, r)
	if out.Outcome != groups.OutcomeAlreadyMember || !out.Sent || out.Accepted || !strings.HasPrefix(out.Message, "duplicate:") ||
		!strings.Contains(out.Note, "39002") || !strings.Contains(out.Note, "partial") {
		t.Fatalf("%+v", out)
	}
	human := w.As(clitest.PcStrangerSK, "group", "join", clitest.PcHome)
	if human.Code != cmdutil.ExitOK || !strings.Contains(human.Out, "already-member") || !strings.Contains(human.Out, "note: ") {
		t.Fatalf("exit %d:\n%s%s", human.Code, human.Out, human.Err)
	}

	// Removed, admitted again, and the relay withholds the re-admission:
	// the latest 9001 it serves removes me.
	w.Relay.SetMisbehaviour(devrelay.Misbehaviour{})
	// Dated after the relay's 9000 (the same second would be a tie).
	w.MustPublish(clitest.PcOwnerSK, &nostr.Event{Kind: grouprelay.KindRemoveUser, CreatedAt: nostr.Now() + 5, Tags: nostr.Tags{{"h", clitest.PcHome}, {"p", me}}})
	if r := w.As(clitest.PcStrangerSK, "group", "join", clitest.PcHome, "--json"); r.Code != cmdutil.ExitOK || clitest.DecodeOut[report.GroupRequest](t, r).Outcome != groups.OutcomeJoined {
		t.Fatalf("re-join: exit %d %s %s", r.Code, r.Out, r.Err)
	}
	puts := w.Relay.Stored(nostr.Filter{Kinds: []int{grouprelay.KindPutUser}, Tags: nostr.TagMap{"p": {me}}})
	hidden := map[string]bool{}
	for _, e := range puts {
		hidden[e.ID] = true
	}
	w.Relay.SetMisbehaviour(devrelay.Misbehaviour{Withhold: func(e *nostr.Event) bool {
		return hidden[e.ID] || e.Kind == groups.KindMembers
	}})
	out = clitest.DecodeOut[report.GroupRequest](t, w.As(clitest.PcStrangerSK, "group", "join", clitest.PcHome, "--json"))
	if out.Outcome != groups.OutcomeAlreadyMember || out.Before.Basis != "remove-user" || !strings.Contains(out.Note, "9001") ||
		!strings.Contains(out.Note, out.After.EventID) {
		t.Fatalf("%+v", out)
	}
}
