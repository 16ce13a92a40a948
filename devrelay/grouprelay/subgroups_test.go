package grouprelay

import (
	"context"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/workspace/groups"
)

// edit sends a 9002 for group id and keeps every state event emitted.
func (f *fixture) edit(sk, id string, tags ...nostr.Tag) error {
	e := &nostr.Event{Kind: KindEditMetadata, CreatedAt: f.now, Tags: append(nostr.Tags{{"h", id}}, tags...)}
	if err := e.Sign(sk); err != nil {
		f.t.Fatal(err)
	}
	out, err := f.a.Ingest(context.Background(), f.env, e.PubKey, e)
	for _, o := range out[min(1, len(out)):] {
		f.state = append(f.state, o)
	}
	return err
}

func (f *fixture) create(sk, id string) {
	e := &nostr.Event{Kind: KindCreateGroup, CreatedAt: f.now, Tags: nostr.Tags{{"h", id}}}
	if err := e.Sign(sk); err != nil {
		f.t.Fatal(err)
	}
	out, err := f.a.Ingest(context.Background(), f.env, e.PubKey, e)
	ok(f.t, err)
	f.state = append(f.state, out[1:]...)
}

func (f *fixture) meta(id string) *groups.Metadata {
	return groups.Build(id, pub(f.t, relaySK), f.state).Metadata
}

// Rule (nip-29.md "Subgroups"): a 9002 with a parent makes the group its
// child and the relay lists it in the parent's 39000 child tags, in order;
// only the parent's admin may, no cycle and no unknown parent; a parent's
// 9002 must list all its children; a 9002 without parent makes a root; a
// deleted parent's children become roots.
func TestSubgroupsParentAndChildTags(t *testing.T) {
	f := newFixture(t)
	f.create(ownerSK, "tech")
	f.create(ownerSK, "nostr")
	f.create(ownerSK, "nip29")
	ok(t, f.edit(ownerSK, "nostr", nostr.Tag{"name", "Nostr"}, nostr.Tag{"parent", "tech"}))
	ok(t, f.edit(ownerSK, "nip29", nostr.Tag{"parent", "tech"}))
	if m := f.meta("tech"); strings.Join(m.Children, ",") != "nostr,nip29" {
		t.Fatalf("tech children %v", m.Children)
	}
	if m := f.meta("nostr"); m.Parent != "tech" || m.Name != "Nostr" {
		t.Fatalf("nostr %+v", m)
	}
	refused(t, f.edit(ownerSK, "tech", nostr.Tag{"name", "Tech"}), "invalid: ")
	ok(t, f.edit(ownerSK, "tech", nostr.Tag{"name", "Tech"}, nostr.Tag{"child", "nip29"}, nostr.Tag{"child", "nostr"}))
	if m := f.meta("tech"); strings.Join(m.Children, ",") != "nip29,nostr" || m.Name != "Tech" {
		t.Fatalf("reordered %+v", m)
	}
	refused(t, f.edit(ownerSK, "tech", nostr.Tag{"parent", "nostr"}, nostr.Tag{"child", "nip29"}, nostr.Tag{"child", "nostr"}), "invalid: ")
	refused(t, f.edit(ownerSK, "nip29", nostr.Tag{"parent", "nip29"}), "invalid: ")
	refused(t, f.edit(ownerSK, "nip29", nostr.Tag{"parent", "nowhere"}), "invalid: ")
	f.create(adminSK, "mine")
	refused(t, f.edit(adminSK, "mine", nostr.Tag{"parent", "tech"}), "restricted: ")
	refused(t, f.edit(ownerSK, "nip29", nostr.Tag{"parent", "a"}, nostr.Tag{"parent", "b"}), "invalid: ")

	ok(t, f.edit(ownerSK, "nip29")) // promoted to root
	if m := f.meta("nip29"); m.Parent != "" {
		t.Fatalf("nip29 %+v", m)
	}
	if m := f.meta("tech"); strings.Join(m.Children, ",") != "nostr" {
		t.Fatalf("tech after promotion %v", m.Children)
	}
	del := &nostr.Event{Kind: KindDeleteGroup, CreatedAt: f.now, Tags: nostr.Tags{{"h", "tech"}}}
	ok(t, del.Sign(ownerSK))
	out, err := f.a.Ingest(context.Background(), f.env, del.PubKey, del)
	ok(t, err)
	f.state = append(f.state, out[1:]...)
	if m := f.meta("nostr"); m.Parent != "" {
		t.Fatalf("child of a deleted parent %+v", m)
	}
}
