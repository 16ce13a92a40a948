package graph

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// annFor is ann for another repository identifier.
func annFor(t testing.TB, alias, identifier string, createdAt int64, tags ...[]string) *nostr.Event {
	t.Helper()
	e := &nostr.Event{Kind: KindAnnouncement, CreatedAt: nostr.Timestamp(createdAt), Tags: nostr.Tags{{"d", identifier}}}
	for _, tag := range tags {
		e.Tags = append(e.Tags, expand(tag))
	}
	if err := e.Sign(secretOf(alias)); err != nil {
		t.Fatal(err)
	}
	return e
}

// Rule (maintainer model: components, the virtual repositories, are per
// identifier and selected coordinate); maintainers.md: a repository is the set of same-identifier
// announcements. Another identifier's announcements, even newer ones by the
// same people, neither confirm nor redirect anybody.
func TestComponentIsScopedToTheSelectedIdentifier(t *testing.T) {
	alice := ann(t, "alice", 300, []string{"M", "<alice>"}, []string{"m", "<bob>"}, []string{"maintainers", "<alice>", "<bob>"})
	bobElsewhere := annFor(t, "bob", "other-repo", 300, []string{"M", "<alice>"}, []string{"m", "<bob>"}, []string{"maintainers", "<alice>", "<bob>"})
	aliceElsewhere := annFor(t, "alice", "other-repo", 900, []string{"M", "<carol>"}, []string{"m", "<alice>"}, []string{"maintainers", "<alice>", "<carol>"})
	r := resolve(t, "alice", alice, bobElsewhere, aliceElsewhere)
	if r.Lead != pk("alice") || r.LeadSource != LeadExplicit {
		t.Fatalf("lead %q (%s): another identifier's newer announcement must not redirect", r.Lead, r.LeadSource)
	}
	if r.Confirmed(pk("bob")) || statusOf(r, "bob") != StatusInvited {
		t.Fatalf("bob's acceptance under another identifier must not confirm him here: %v", r.Maintainers)
	}
	if len(r.Component) != 1 || r.Component[0] != pk("alice") {
		t.Fatalf("component %v, want alice only", r.Component)
	}
}
