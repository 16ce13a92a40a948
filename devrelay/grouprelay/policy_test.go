package grouprelay

import (
	"context"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// withStore gives the fixture a store the authority can query and delete
// from, as devrelay lends it (Env.Query, Env.Delete), and returns it.
func (f *fixture) withStore() map[string]*nostr.Event {
	stored := map[string]*nostr.Event{}
	f.env.Query = func(_ context.Context, flt nostr.Filter) []*nostr.Event {
		var out []*nostr.Event
		for _, e := range stored {
			if flt.Matches(e) {
				out = append(out, e)
			}
		}
		return out
	}
	f.env.Delete = func(id string) { delete(stored, id) }
	return stored
}

// post stores a group message by sk, as the relay core would.
func (f *fixture) post(stored map[string]*nostr.Event, sk string) *nostr.Event {
	e := &nostr.Event{Kind: 9, CreatedAt: f.now, Content: "hi", Tags: nostr.Tags{{"h", gid}}}
	if err := e.Sign(sk); err != nil {
		f.t.Fatal(err)
	}
	stored[e.ID] = e
	return e
}

// Rule (nip-29.md "moderation events": relays "must check if the pubkey
// sending the event is capable of performing the given action based on its
// role and the relay's internal policy"): the reference policy. A
// moderator deletes events and creates invites but adds no one and edits no
// metadata; an admin does those but deletes no group; a plain member
// moderates nothing; each refusal names the kind, the roles that may, and
// the sender's roles.
func TestEachRoleMaySendOnlyWhatThePolicyGivesIt(t *testing.T) {
	f := newFixture(t)
	stored := f.withStore()
	ok(t, f.send(ownerSK, KindCreateGroup))
	ok(t, f.send(ownerSK, KindPutUser, nostr.Tag{"p", pub(t, adminSK), "admin"}))
	ok(t, f.send(ownerSK, KindPutUser, nostr.Tag{"p", pub(t, userSK), RoleModerator}))
	plainSK := strings.Repeat("05", 32)
	ok(t, f.send(ownerSK, KindPutUser, nostr.Tag{"p", pub(t, plainSK)}))

	err := f.send(userSK, KindPutUser, nostr.Tag{"p", pub(t, plainSK), "admin"})
	refused(t, err, "restricted: put-user (kind 9000) needs the role owner or admin: your roles in group "+gid+" (moderator) do not allow it")
	refused(t, f.send(userSK, KindEditMetadata, nostr.Tag{"name", "x"}), "restricted: edit-metadata")
	ok(t, f.send(userSK, KindCreateInvite, nostr.Tag{"code", "by-moderator"}))
	msg := f.post(stored, plainSK)
	ok(t, f.send(userSK, KindDeleteEvent, nostr.Tag{"e", msg.ID}))
	if stored[msg.ID] != nil {
		t.Fatal("the moderator's delete-event left the message stored")
	}

	refused(t, f.send(adminSK, KindDeleteGroup), "restricted: delete-group (kind 9008) needs the role owner: your roles in group "+gid+" (admin)")
	ok(t, f.send(adminSK, KindEditMetadata, nostr.Tag{"name", "by admin"}))

	msg = f.post(stored, adminSK)
	err = f.send(plainSK, KindDeleteEvent, nostr.Tag{"e", msg.ID})
	refused(t, err, "restricted: delete-event (kind 9005) needs the role owner or admin or moderator: you hold no role in group")
	strangerSK := strings.Repeat("06", 32)
	refused(t, f.send(strangerSK, KindCreateInvite, nostr.Tag{"code", "x"}), "restricted: create-invite (kind 9009) needs the role owner or admin or moderator: you are not a member")
	if stored[msg.ID] == nil {
		t.Fatal("a refused delete-event removed the message")
	}
	// 39003 advertises each role with what it may do.
	roles := f.read().Roles
	if len(roles) != 3 || roles[2].Name != RoleModerator || !strings.Contains(roles[2].Description, "9005") {
		t.Fatalf("39003 roles %+v", roles)
	}
}

// Rule (nip-29.md 9005 delete-event, "e with event id hex"): the event must
// be one of this group's that the relay stores; another group's event, an
// unknown id and the moderation events the state is rebuilt from are
// refused.
func TestDeleteEventOnlyDeletesThisGroupsOrdinaryEvents(t *testing.T) {
	f := newFixture(t)
	stored := f.withStore()
	ok(t, f.send(ownerSK, KindCreateGroup))
	other := &nostr.Event{Kind: 9, CreatedAt: f.now, Tags: nostr.Tags{{"h", "elsewhere"}}}
	_ = other.Sign(userSK)
	stored[other.ID] = other
	refused(t, f.send(ownerSK, KindDeleteEvent, nostr.Tag{"e", other.ID}), "invalid: event "+other.ID+" is not in group")
	refused(t, f.send(ownerSK, KindDeleteEvent, nostr.Tag{"e", strings.Repeat("ab", 32)}), "invalid: event "+strings.Repeat("ab", 32)+" is not stored")
	refused(t, f.send(ownerSK, KindDeleteEvent), "invalid: delete-event needs an e tag")
	put := &nostr.Event{Kind: KindPutUser, CreatedAt: f.now, Tags: nostr.Tags{{"h", gid}, {"p", pub(t, userSK)}}}
	_ = put.Sign(ownerSK)
	stored[put.ID] = put
	refused(t, f.send(ownerSK, KindDeleteEvent, nostr.Tag{"e", put.ID}), "invalid: event "+put.ID+" is a moderation event")
}

// Decided (NIP-29 leaves it open): an invite code admits one person. A
// second join with a used code is refused restricted:, even by someone who
// left after using it; a code is never issued twice.
func TestAnInviteCodeAdmitsOnePerson(t *testing.T) {
	f := newFixture(t)
	ok(t, f.send(ownerSK, KindCreateGroup))
	ok(t, f.send(ownerSK, KindEditMetadata, nostr.Tag{"closed"}))
	ok(t, f.send(ownerSK, KindCreateInvite, nostr.Tag{"code", "once"}))
	refused(t, f.send(ownerSK, KindCreateInvite, nostr.Tag{"code", "once"}), "duplicate: ")
	_, err := f.request(userSK, KindJoinRequest, nostr.Tag{"code", "once"})
	ok(t, err)
	_, err = f.request(adminSK, KindJoinRequest, nostr.Tag{"code", "once"})
	refused(t, err, "restricted: the invite code was already used")
	_, err = f.request(userSK, KindLeaveRequest)
	ok(t, err)
	_, err = f.request(userSK, KindJoinRequest, nostr.Tag{"code", "once"})
	refused(t, err, "restricted: the invite code was already used")
	refused(t, f.send(ownerSK, KindCreateInvite, nostr.Tag{"code", "once"}), "duplicate: ")
}

// Rule (nip-29.md "Timeline references"): "Relays are expected to reject any
// events that contain timeline references to events not found in their own
// database." A moderation event whose previous tags name the first 8
// characters of this group's stored events is accepted; one naming anything
// else is refused; none at all is not checked.
func TestPreviousReferencesMustNameStoredEventsOfTheGroup(t *testing.T) {
	f := newFixture(t)
	stored := f.withStore()
	ok(t, f.send(ownerSK, KindCreateGroup))
	msg := f.post(stored, userSK)
	ok(t, f.send(ownerSK, KindCreateInvite, nostr.Tag{"code", "a"}, nostr.Tag{"previous", msg.ID[:8]}))
	refused(t, f.send(ownerSK, KindCreateInvite, nostr.Tag{"code", "b"}, nostr.Tag{"previous", "00000000"}), "invalid: previous reference 00000000 names no event")
	refused(t, f.send(ownerSK, KindCreateInvite, nostr.Tag{"code", "c"}, nostr.Tag{"previous", "xyz"}), "invalid: previous reference")
}
