package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/devrelay/grouprelay"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/workspace/groups"
)

// storedKind is every event of kind by sk's key the relay stored.
func (w *pcWorld) storedKind(kind int, by string) []*nostr.Event {
	return w.relay.Stored(nostr.Filter{Kinds: []int{kind}, Authors: []string{by}})
}

// Rule (nip-29.md 9021/9022, NIP-51 10009): an outsider's join to an open
// group is admitted by the relay (its own 9000), a second join sends
// nothing, --save adds the group to the 10009 keeping every other entry,
// and a leave is answered with the relay's 9001 and --save removes the entry.
func TestGroupJoinAndLeaveAnOpenGroup(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	w.group(pcOwnerSK, grouprelay.KindCreateGroup)
	w.group(pcOwnerSK, grouprelay.KindEditMetadata, nostr.Tag{"name", "Home"})
	me := pubOf(t, pcStrangerSK)

	r := w.as(pcStrangerSK, "group", "join", pcHome, "--reason", "hello", "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("exit %d %s %s", r.Code, r.Out, r.Err)
	}
	out := decodeOut[report.GroupRequest](t, r)
	if out.Schema != "roster.group.join/v1" || out.Outcome != groups.OutcomeJoined || !out.Sent || !out.Accepted || out.Code ||
		out.Before.Member || out.Before.Basis != "none" || !out.After.Member || out.After.Basis != "put-user" || out.Relay != w.relay.URL() {
		t.Fatalf("%+v", out)
	}
	reqs := w.storedKind(grouprelay.KindJoinRequest, me)
	if len(reqs) != 1 || reqs[0].ID != out.EventID || reqs[0].Content != "hello" || reqs[0].Tags.Find("code") != nil ||
		reqs[0].Tags.GetFirst([]string{"h", pcHome}) == nil {
		t.Fatalf("stored join requests %v", reqs)
	}
	puts := w.relay.Stored(nostr.Filter{Kinds: []int{grouprelay.KindPutUser}, Authors: []string{w.relay.Self()}, Tags: nostr.TagMap{"p": {me}}})
	if len(puts) != 1 || puts[0].ID != out.After.EventID {
		t.Fatalf("relay-signed 9000 %v", puts)
	}
	if out.List.Status != "offered" || len(out.List.Commands) != 1 || !strings.Contains(out.List.Commands[0], "roster group join '"+w.relay.URL()+"'\\''"+pcHome+"' --save") {
		t.Fatalf("list %+v", out.List)
	}
	if got := w.storedKind(groups.KindGroupsList, me); len(got) != 0 {
		t.Fatalf("a 10009 was published without --save: %v", got)
	}

	// My existing list: another group, an unknown tag and private content.
	prev := &nostr.Event{Kind: groups.KindGroupsList, CreatedAt: nostr.Now() - 100, Content: "private-items",
		Tags: nostr.Tags{{"group", "other", "wss://elsewhere.example", "Other"}, {"r", "wss://elsewhere.example"}}}
	w.mustPublish(pcStrangerSK, prev)
	again := decodeOut[report.GroupRequest](t, w.as(pcStrangerSK, "group", "join", w.relay.URL()+"'"+pcHome, "--save", "--json"))
	if again.Outcome != groups.OutcomeAlreadyMember || again.Sent || again.List.Status != "saved" || again.List.Previous != prev.ID {
		t.Fatalf("%+v", again)
	}
	if n := len(w.storedKind(grouprelay.KindJoinRequest, me)); n != 1 {
		t.Fatalf("a member's join sent another request: %d stored", n)
	}
	list := w.storedKind(groups.KindGroupsList, me)
	if len(list) != 1 || list[0].ID != again.List.EventID || list[0].Content != prev.Content {
		t.Fatalf("stored 10009 %v", list)
	}
	wantTags, _ := json.Marshal(append(prev.Tags, nostr.Tag{"group", pcHome, w.relay.URL(), "Home"}))
	if gotTags, _ := json.Marshal(list[0].Tags); string(gotTags) != string(wantTags) {
		t.Fatalf("10009 tags\n got %s\nwant %s", gotTags, wantTags)
	}

	mine := decodeOut[report.GroupMine](t, w.as(pcStrangerSK, "group", "list", "--mine", "--json"))
	if mine.Schema != "roster.group.mine/v1" || mine.EventID != list[0].ID || len(mine.Groups) != 2 || mine.Groups[1].ID != pcHome {
		t.Fatalf("%+v", mine)
	}

	left := decodeOut[report.GroupRequest](t, w.as(pcStrangerSK, "group", "leave", pcHome, "--save", "--json"))
	if left.Schema != "roster.group.leave/v1" || left.Outcome != groups.OutcomeLeft || !left.Sent || left.After.Member || left.After.Basis != "remove-user" ||
		left.List.Status != "saved" {
		t.Fatalf("%+v", left)
	}
	if n := len(w.storedKind(grouprelay.KindLeaveRequest, me)); n != 1 {
		t.Fatalf("stored leave requests: %d", n)
	}
	list = w.storedKind(groups.KindGroupsList, me)
	prevTags, _ := json.Marshal(prev.Tags)
	if gotTags, _ := json.Marshal(list[0].Tags); len(list) != 1 || string(gotTags) != string(prevTags) || list[0].Content != prev.Content {
		t.Fatalf("10009 after leave %s", gotTags)
	}
	gone := decodeOut[report.GroupRequest](t, w.as(pcStrangerSK, "group", "leave", pcHome, "--json"))
	if gone.Outcome != groups.OutcomeNotMember || gone.Sent || gone.List.Status != "unchanged" {
		t.Fatalf("%+v", gone)
	}
	text := w.as(pcStrangerSK, "group", "join", pcHome)
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
	w := newPCWorld(t)
	w.group(pcOwnerSK, grouprelay.KindCreateGroup)
	w.group(pcOwnerSK, grouprelay.KindEditMetadata, nostr.Tag{"name", "Closed"}, nostr.Tag{"closed"})
	me := pubOf(t, pcStrangerSK)

	p := decodeOut[report.GroupRequest](t, w.as(pcStrangerSK, "group", "join", pcHome, "--save", "--json"))
	if p.Outcome != groups.OutcomePending || !p.Sent || !p.Accepted || p.After.Member || p.List.Status != "skipped" ||
		!strings.Contains(p.Explanation, "queued for an admin's approval") {
		t.Fatalf("%+v", p)
	}
	if len(w.storedKind(groups.KindGroupsList, me)) != 0 {
		t.Fatal("a pending join saved the 10009")
	}

	r := w.as(pcStrangerSK, "group", "join", pcHome, "--code", "guess", "--json")
	e := errorBody(t, r)
	if r.Code != cmdutil.ExitRefused || e.Code != "relay-rejected" || e.Details["prefix"] != "restricted" || !strings.Contains(e.Message, "invite code is not valid") {
		t.Fatalf("exit %d %+v", r.Code, e)
	}
	if n := len(w.storedKind(grouprelay.KindJoinRequest, me)); n != 1 {
		t.Fatalf("the refused request was stored: %d join requests", n)
	}

	w.group(pcOwnerSK, grouprelay.KindCreateInvite, nostr.Tag{"code", "welcome"})
	naddr, err := groups.Naddr(pcHome, w.relay.URL(), w.relay.Self(), "welcome")
	if err != nil {
		t.Fatal(err)
	}
	stale, _ := groups.Naddr(pcHome, w.relay.URL(), pubOf(t, pcAdminSK), "")
	if r := w.as(pcStrangerSK, "group", "show", stale); r.Code != cmdutil.ExitOK || !strings.Contains(r.Err, "warning: the naddr names relay key "+pubOf(t, pcAdminSK)) {
		t.Fatalf("naddr of another key: exit %d %s", r.Code, r.Err)
	}
	if r := w.as(pcStrangerSK, "group", "join", naddr, "--code", "other"); r.Code != cmdutil.ExitUsage {
		t.Fatalf("two different codes: exit %d %s", r.Code, r.Err)
	}
	in := decodeOut[report.GroupRequest](t, w.as(pcStrangerSK, "group", "join", naddr, "--json"))
	if in.Outcome != groups.OutcomeJoined || !in.Code {
		t.Fatalf("%+v", in)
	}
	var sent *nostr.Event
	for _, e := range w.storedKind(grouprelay.KindJoinRequest, me) {
		if e.ID == in.EventID {
			sent = e
		}
	}
	if sent == nil || sent.Tags.GetFirst([]string{"code", "welcome"}) == nil {
		t.Fatalf("stored request %v", sent)
	}

	// The owner is the last owner: the relay refuses the leave, exit 3.
	r = w.as(pcOwnerSK, "group", "leave", pcHome, "--json")
	if e := errorBody(t, r); r.Code != cmdutil.ExitRefused || e.Details["prefix"] != "restricted" {
		t.Fatalf("exit %d %+v", r.Code, e)
	}
	if n := len(w.storedKind(grouprelay.KindLeaveRequest, pubOf(t, pcOwnerSK))); n != 0 {
		t.Fatalf("refused leave stored: %d", n)
	}
}

// group members lists the relay-signed 39002 in order with each member's
// 39001 roles; the naddr and relay'id references name the group too.
func TestGroupMembersListsRolesFromTheRelaySignedLists(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	w.group(pcOwnerSK, grouprelay.KindCreateGroup)
	w.group(pcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", pubOf(t, pcAdminSK), "admin"})
	w.group(pcOwnerSK, grouprelay.KindPutUser, nostr.Tag{"p", pubOf(t, pcStrangerSK)})
	naddr, _ := groups.Naddr(pcHome, w.relay.URL(), w.relay.Self(), "")
	for _, ref := range []string{pcHome, w.relay.URL() + "'" + pcHome, naddr} {
		r := w.as(swViewerSK, "group", "members", ref, "--json")
		if r.Code != cmdutil.ExitOK {
			t.Fatalf("%s: exit %d %s %s", ref, r.Code, r.Out, r.Err)
		}
		out := decodeOut[report.GroupMembers](t, r)
		if out.Schema != "roster.group.members/v1" || out.ID != pcHome || len(out.Relays) != 1 {
			t.Fatalf("%+v", out)
		}
		var got []string
		for _, m := range out.Relays[0].Members {
			got = append(got, m.Npub[:10]+":"+strings.Join(m.Roles, "+"))
			if !m.Listed {
				t.Errorf("%s not listed", m.Npub)
			}
		}
		want := []string{w.npubOf(pcOwnerSK)[:10] + ":owner", w.npubOf(pcAdminSK)[:10] + ":admin", w.npubOf(pcStrangerSK)[:10] + ":"}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("%s: members %v, want %v", ref, got, want)
		}
	}
	text := w.as(swViewerSK, "group", "members", pcHome)
	if text.Code != cmdutil.ExitOK || !strings.Contains(text.Out, ": 3\n") || !strings.Contains(text.Out, "  admin\n") || !strings.Contains(text.Out, "  member\n") {
		t.Fatalf("text:\n%s", text.Out)
	}
	if r := w.as(swViewerSK, "group", "members", "a'b'c"); r.Code != cmdutil.ExitUsage {
		t.Fatalf("bad reference: exit %d", r.Code)
	}
}

func (w *pcWorld) npubOf(sk string) string { return render.WsPerson(pubOf(w.t, sk), "").Npub }

// Rule (nip-29.md "Subgroups"): group show draws the relay's subgroup tree
// from its signed 39000s (parent and ordered child tags), marking the group.
func TestGroupShowDrawsTheSubgroupTree(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	for _, id := range []string{"tech", "nostr", "nip29"} {
		w.mustPublish(pcOwnerSK, &nostr.Event{Kind: grouprelay.KindCreateGroup, CreatedAt: nostr.Now(), Tags: nostr.Tags{{"h", id}}})
	}
	edit := func(id string, tags ...nostr.Tag) {
		w.mustPublish(pcOwnerSK, &nostr.Event{Kind: grouprelay.KindEditMetadata, CreatedAt: nostr.Now(), Tags: append(nostr.Tags{{"h", id}}, tags...)})
	}
	edit("tech", nostr.Tag{"name", "Tech"})
	edit("nostr", nostr.Tag{"name", "Nostr"}, nostr.Tag{"parent", "tech"})
	edit("nip29", nostr.Tag{"name", "NIP-29"}, nostr.Tag{"parent", "nostr"})
	r := w.as(pcOwnerSK, "group", "show", "nostr")
	want := "  subgroups (this relay's tree; * is this group)\n      tech  Tech\n      * nostr  Nostr\n          nip29  NIP-29\n"
	if r.Code != cmdutil.ExitOK || !strings.Contains(r.Out, want) {
		t.Fatalf("exit %d\n%s", r.Code, r.Out)
	}
	g := decodeOut[report.Group](t, w.as(pcOwnerSK, "group", "show", "nostr", "--json")).Relays[0].Group.Metadata
	if g.Parent != "tech" || strings.Join(g.Children, ",") != "nip29" {
		t.Fatalf("%+v", g)
	}
	if r := w.as(pcOwnerSK, "group", "show", "nip29"); !strings.Contains(r.Out, "* nip29") {
		t.Fatalf("%s", r.Out)
	}
}

// A relay that demands NIP-42 for every read and write gets the joiner's
// authentication, and the join is judged as on any relay; an outsider's
// leave sends nothing.
func TestGroupJoinOnARelayThatRequiresAuth(t *testing.T) {
	t.Parallel()
	w := newPCWorldWith(t, true)
	w.group(pcOwnerSK, grouprelay.KindCreateGroup)
	r := w.as(pcAdminSK, "group", "join", pcHome, "--json")
	if out := decodeOut[report.GroupRequest](t, r); r.Code != cmdutil.ExitOK || out.Outcome != groups.OutcomeJoined {
		t.Fatalf("exit %d %+v %s", r.Code, out, r.Err)
	}
	r = w.as(pcStrangerSK, "group", "leave", pcHome, "--json")
	if out := decodeOut[report.GroupRequest](t, r); r.Code != cmdutil.ExitOK || out.Outcome != groups.OutcomeNotMember || out.Sent {
		t.Fatalf("exit %d %+v", r.Code, out)
	}
	if n := len(w.storedKind(grouprelay.KindLeaveRequest, pubOf(t, pcStrangerSK))); n != 0 {
		t.Fatalf("stored %d leave requests", n)
	}
}

// Rule (nip-29.md kind 9021: a rejection SHOULD explain whether it is
// final or pending review; NIP-01 OK prefixes): a refusal saying the
// request is pending is the outcome pending (exit 0); restricted: and
// auth-required: are exit 3 with the relay's words, rate-limited: exit 4.
func TestGroupJoinMapsTheRelaysRefusals(t *testing.T) {
	t.Parallel()
	w := newPCWorld(t)
	w.group(pcOwnerSK, grouprelay.KindCreateGroup)
	for _, c := range []struct {
		reason, code, prefix string
		exit                 int
	}{
		{"restricted: your request is pending review by an admin", "", "", cmdutil.ExitOK},
		{"restricted: payment required", "relay-rejected", "restricted", cmdutil.ExitRefused},
		{"auth-required: we only admit authenticated users", "relay-rejected", "auth-required", cmdutil.ExitRefused},
		{"rate-limited: slow down", "rate-limited", "", cmdutil.ExitIncomplete},
	} {
		w.relay.SetMisbehaviour(devrelay.Misbehaviour{RefuseEvent: func(evt *nostr.Event) string {
			if evt.Kind == grouprelay.KindJoinRequest {
				return c.reason
			}
			return ""
		}})
		r := w.as(pcStrangerSK, "group", "join", pcHome, "--json")
		if r.Code != c.exit {
			t.Fatalf("%q: exit %d %s", c.reason, r.Code, r.Out)
		}
		if c.exit == cmdutil.ExitOK {
			out := decodeOut[report.GroupRequest](t, r)
			if out.Outcome != groups.OutcomePending || out.Accepted || out.Message != c.reason || !strings.Contains(out.Explanation, "pending review") {
				t.Fatalf("%+v", out)
			}
			continue
		}
		e := errorBody(t, r)
		if e.Code != c.code || c.prefix != "" && e.Details["prefix"] != c.prefix || !strings.Contains(e.Message, c.reason) {
			t.Fatalf("%q: %+v", c.reason, e)
		}
	}
	if n := len(w.storedKind(grouprelay.KindJoinRequest, pubOf(t, pcStrangerSK))); n != 0 {
		t.Fatalf("refused requests stored: %d", n)
	}
}

// Rule (nip-29.md "Forking a group": the same id on two relays is two
// groups): with two relays hosting the id, join names neither on its own:
// exit 2 with one command per relay, and nothing is sent to either.
func TestGroupJoinRefusesToPickAForkItself(t *testing.T) {
	t.Parallel()
	a, b := newPCWorld(t), newPCWorld(t)
	a.group(pcOwnerSK, grouprelay.KindCreateGroup)
	b.group(pcAdminSK, grouprelay.KindCreateGroup)
	env := map[string]string{"ROSTER_SECRET_KEY": pcStrangerSK, "ROSTER_HOME": t.TempDir()}
	r := invocation{Env: env}.roster(t, "group", "join", pcHome, "--relay", a.relay.URL(), "--relay", b.relay.URL(), "--timeout", "5s", "--json")
	e := errorBody(t, r)
	if r.Code != cmdutil.ExitUsage || e.Code != groups.CodeAmbiguous || len(e.Commands) != 2 ||
		!strings.Contains(e.Commands[0]+e.Commands[1], a.relay.URL()) || !strings.Contains(e.Commands[0]+e.Commands[1], b.relay.URL()) {
		t.Fatalf("exit %d %+v", r.Code, e)
	}
	for _, w := range []*pcWorld{a, b} {
		if n := len(w.storedKind(grouprelay.KindJoinRequest, pubOf(t, pcStrangerSK))); n != 0 {
			t.Fatalf("a join was sent: %d", n)
		}
	}
	r = invocation{Env: env}.roster(t, "group", "join", b.relay.URL()+"'"+pcHome, "--relay", a.relay.URL(), "--timeout", "5s", "--json")
	if out := decodeOut[report.GroupRequest](t, r); r.Code != cmdutil.ExitOK || out.Relay != b.relay.URL() || len(a.storedKind(grouprelay.KindJoinRequest, pubOf(t, pcStrangerSK))) != 0 {
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
	w := newPCWorld(t)
	w.group(pcOwnerSK, grouprelay.KindCreateGroup)
	me := pubOf(t, pcStrangerSK)
	if r := w.as(pcStrangerSK, "group", "join", pcHome, "--json"); r.Code != cmdutil.ExitOK {
		t.Fatalf("first join: exit %d %s %s", r.Code, r.Out, r.Err)
	}
	w.relay.SetMisbehaviour(devrelay.Misbehaviour{Withhold: func(e *nostr.Event) bool {
		return e.Kind == grouprelay.KindPutUser || e.Kind == groups.KindMembers
	}})
	r := w.as(pcStrangerSK, "group", "join", pcHome, "--json")
	if r.Code != cmdutil.ExitOK {
		t.Fatalf("join answered duplicate: exit %d %s %s", r.Code, r.Out, r.Err)
	}
	out := decodeOut[report.GroupRequest](t, r)
	if out.Outcome != groups.OutcomeAlreadyMember || !out.Sent || out.Accepted || !strings.HasPrefix(out.Message, "duplicate:") ||
		!strings.Contains(out.Note, "39002") || !strings.Contains(out.Note, "partial") {
		t.Fatalf("%+v", out)
	}
	human := w.as(pcStrangerSK, "group", "join", pcHome)
	if human.Code != cmdutil.ExitOK || !strings.Contains(human.Out, "already-member") || !strings.Contains(human.Out, "note: ") {
		t.Fatalf("exit %d:\n%s%s", human.Code, human.Out, human.Err)
	}

	// Removed, admitted again, and the relay withholds the re-admission:
	// the latest 9001 it serves removes me.
	w.relay.SetMisbehaviour(devrelay.Misbehaviour{})
	// Dated after the relay's 9000 (the same second would be a tie).
	w.mustPublish(pcOwnerSK, &nostr.Event{Kind: grouprelay.KindRemoveUser, CreatedAt: nostr.Now() + 5, Tags: nostr.Tags{{"h", pcHome}, {"p", me}}})
	if r := w.as(pcStrangerSK, "group", "join", pcHome, "--json"); r.Code != cmdutil.ExitOK || decodeOut[report.GroupRequest](t, r).Outcome != groups.OutcomeJoined {
		t.Fatalf("re-join: exit %d %s %s", r.Code, r.Out, r.Err)
	}
	puts := w.relay.Stored(nostr.Filter{Kinds: []int{grouprelay.KindPutUser}, Tags: nostr.TagMap{"p": {me}}})
	hidden := map[string]bool{}
	for _, e := range puts {
		hidden[e.ID] = true
	}
	w.relay.SetMisbehaviour(devrelay.Misbehaviour{Withhold: func(e *nostr.Event) bool {
		return hidden[e.ID] || e.Kind == groups.KindMembers
	}})
	out = decodeOut[report.GroupRequest](t, w.as(pcStrangerSK, "group", "join", pcHome, "--json"))
	if out.Outcome != groups.OutcomeAlreadyMember || out.Before.Basis != "remove-user" || !strings.Contains(out.Note, "9001") ||
		!strings.Contains(out.Note, out.After.EventID) {
		t.Fatalf("%+v", out)
	}
}
