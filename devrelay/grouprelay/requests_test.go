package grouprelay

import (
	"context"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/workspace/groups"
)

// request sends a user's 9021/9022 and returns what the relay emitted.
func (f *fixture) request(sk string, kind int, tags ...nostr.Tag) ([]*nostr.Event, error) {
	e := &nostr.Event{Kind: kind, CreatedAt: f.now, Tags: append(nostr.Tags{{"h", gid}}, tags...)}
	if err := e.Sign(sk); err != nil {
		f.t.Fatal(err)
	}
	out, err := f.a.Ingest(context.Background(), f.env, e.PubKey, e)
	for _, o := range out {
		if o.Kind >= groups.KindMetadata {
			f.state = append(f.state, o)
		}
	}
	return out, err
}

// membership is what a client reads of sk's membership from the emitted
// events (nip-29.md "Checking your own membership").
func membership(t *testing.T, f *fixture, sk string, events []*nostr.Event) groups.Membership {
	return groups.MembershipOf(gid, pub(t, sk), f.read(), events)
}

// Rule (nip-29.md kind 9021, 9022): a join to an open group makes the
// requester a member through a relay-signed 9000; a leave removes them
// through a relay-signed 9001 dated after it; a member's second join is
// duplicate:, a non-member's leave is refused.
func TestJoinAndLeaveOfAnOpenGroup(t *testing.T) {
	f := newFixture(t)
	ok(t, f.send(ownerSK, KindCreateGroup))
	joined, err := f.request(userSK, KindJoinRequest)
	ok(t, err)
	if len(joined) != 6 || joined[0].Kind != KindJoinRequest || joined[1].Kind != KindPutUser || joined[1].PubKey != pub(t, relaySK) {
		t.Fatalf("emitted %v", joined)
	}
	if m := membership(t, f, userSK, joined); !m.Member || m.Basis != "put-user" || !m.InMembersList {
		t.Fatalf("after join %+v", m)
	}
	_, err = f.request(userSK, KindJoinRequest)
	refused(t, err, "duplicate: ")
	left, err := f.request(userSK, KindLeaveRequest) // same second: still dated later
	ok(t, err)
	if left[1].Kind != KindRemoveUser || left[1].CreatedAt <= joined[1].CreatedAt {
		t.Fatalf("leave emitted %v", left)
	}
	if m := membership(t, f, userSK, append(joined, left...)); m.Member || m.Basis != "remove-user" || m.InMembersList {
		t.Fatalf("after leave %+v", m)
	}
	_, err = f.request(userSK, KindLeaveRequest)
	refused(t, err, "invalid: ")
	_, err = f.request(ownerSK, KindLeaveRequest)
	refused(t, err, "restricted: ")
}

// Rule (nip-29.md "Adding yourself to a group"): a closed group's join
// request without an invite code is not honored (kept for a moderator: the
// requester is not a member); with a code created by 9009 it is; an unknown
// code is refused restricted:.
func TestClosedGroupJoinNeedsAnInviteCode(t *testing.T) {
	f := newFixture(t)
	ok(t, f.send(ownerSK, KindCreateGroup))
	ok(t, f.send(ownerSK, KindEditMetadata, nostr.Tag{"name", "Closed"}, nostr.Tag{"closed"}))
	queued, err := f.request(userSK, KindJoinRequest)
	ok(t, err)
	if len(queued) != 1 || queued[0].Kind != KindJoinRequest || membership(t, f, userSK, queued).Member {
		t.Fatalf("queued join emitted %v", queued)
	}
	_, err = f.request(userSK, KindJoinRequest, nostr.Tag{"code", "guess"})
	refused(t, err, "restricted: ")
	refused(t, f.send(userSK, KindCreateInvite, nostr.Tag{"code", "mine"}), "restricted: ")
	ok(t, f.send(ownerSK, KindCreateInvite, nostr.Tag{"code", "welcome"}))
	joined, err := f.request(userSK, KindJoinRequest, nostr.Tag{"code", "welcome"})
	ok(t, err)
	if m := membership(t, f, userSK, joined); !m.Member {
		t.Fatalf("join with a valid code: %+v", m)
	}
}
