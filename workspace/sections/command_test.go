package sections

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/workspace/channelid"
)

func uuidN(prefix byte, n int) string {
	return fmt.Sprintf("%c%07x-0000-4000-8000-%012x", prefix, n, n)
}

func validImport(nSections, nAssign int) *Import {
	imp := &Import{Version: 1, ActionID: uuidN('d', 1), SourceEventID: strings.Repeat("2", 64), SourceHash: strings.Repeat("3", 64),
		KeyEpoch: 1, OwnerKeyEnvelope: "env", Sections: []ImportSection{}, Assignments: []Assignment{}}
	for i := 0; i < nSections; i++ {
		imp.Sections = append(imp.Sections, ImportSection{ID: uuidN('a', i), Rank: nSections - 1 - i, EncryptedLabel: "ct"})
	}
	for i := 0; i < nAssign; i++ {
		imp.Assignments = append(imp.Assignments, Assignment{ChannelID: uuidN('c', i), SectionID: uuidN('a', i%nSections)})
	}
	return imp
}

func rule(err error) string {
	var re *RuleError
	if errors.As(err, &re) {
		return re.Rule
	}
	if err == nil {
		return "<nil>"
	}
	return "not a rule error: " + err.Error()
}

func TestImportRules(t *testing.T) {
	icon := strings.Repeat("i", MaxEncryptedMetadataBytes+1)
	cases := []struct {
		name  string
		edit  func(*Import)
		rule  string
		valid bool
	}{
		{"valid", func(*Import) {}, "", true},
		{"ranks-permutation-duplicate", func(c *Import) { c.Sections[1].Rank = c.Sections[0].Rank }, "ranks-permutation", false},
		{"ranks-permutation-gap", func(c *Import) { c.Sections[0].Rank = len(c.Sections) }, "ranks-permutation", false},
		{"ranks-permutation-negative", func(c *Import) { c.Sections[0].Rank = -1 }, "ranks-permutation", false},
		{"section-id-nil", func(c *Import) { c.Sections[0].ID = channelid.Nil }, "uuid-nil", false},
		{"section-id-uppercase", func(c *Import) { c.Sections[0].ID = strings.ToUpper(c.Sections[0].ID) }, "uuid", false},
		{"section-id-unique", func(c *Import) { c.Sections[1].ID = c.Sections[0].ID }, "section-unique", false},
		{"key-epoch-is-1", func(c *Import) { c.KeyEpoch = 2 }, "import-key-epoch", false},
		{"version-1-only", func(c *Import) { c.Version = 2 }, "version", false},
		{"action-id-uuid", func(c *Import) { c.ActionID = "not-a-uuid" }, "uuid", false},
		{"source-event-id-hex", func(c *Import) { c.SourceEventID = strings.Repeat("A", 64) }, "hex64", false},
		{"source-hash-hex", func(c *Import) { c.SourceHash = "abc" }, "hex64", false},
		{"channel-unique", func(c *Import) { c.Assignments[1].ChannelID = c.Assignments[0].ChannelID }, "channel-unique", false},
		{"channel-id-nil", func(c *Import) { c.Assignments[0].ChannelID = channelid.Nil }, "uuid-nil", false},
		{"assignment-destination", func(c *Import) { c.Assignments[0].SectionID = uuidN('f', 9) }, "assignment-destination", false},
		{"owner-envelope-empty", func(c *Import) { c.OwnerKeyEnvelope = "" }, "envelope-empty", false},
		{"owner-envelope-at-limit", func(c *Import) { c.OwnerKeyEnvelope = strings.Repeat("e", MaxKeyEnvelopeBytes) }, "", true},
		{"owner-envelope-over-limit", func(c *Import) { c.OwnerKeyEnvelope = strings.Repeat("e", MaxKeyEnvelopeBytes+1) }, "envelope-size", false},
		{"label-at-limit", func(c *Import) { c.Sections[0].EncryptedLabel = strings.Repeat("l", MaxEncryptedMetadataBytes) }, "", true},
		{"label-over-limit", func(c *Import) { c.Sections[0].EncryptedLabel = strings.Repeat("l", MaxEncryptedMetadataBytes+1) }, "metadata-size", false},
		{"icon-over-limit", func(c *Import) { c.Sections[0].EncryptedIcon = &icon }, "metadata-size", false},
		{"label-empty", func(c *Import) { c.Sections[0].EncryptedLabel = "" }, "metadata-empty", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := validImport(3, 3)
			tc.edit(c)
			err := c.Validate()
			if tc.valid {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if rule(err) != tc.rule {
				t.Fatalf("rule %s, want %s", rule(err), tc.rule)
			}
		})
	}
}

func TestImportLimitsSectionsAndAssignments(t *testing.T) {
	if err := validImport(MaxSections, MaxAssignments).Validate(); err != nil {
		t.Fatalf("at the limits: %v", err)
	}
	if err := validImport(MaxSections+1, 1).Validate(); rule(err) != "sections-limit" {
		t.Fatalf("101 sections: %v", err)
	}
	if err := validImport(1, MaxAssignments+1).Validate(); rule(err) != "assignments-limit" {
		t.Fatalf("1001 assignments: %v", err)
	}
}

func validRevoke(nEnvelopes int) *Revoke {
	r := &Revoke{Version: 1, ActionID: uuidN('f', 1), ActorPubkey: strings.Repeat("4", 64), NewKeyEpoch: 2,
		Sections: []ReencryptedSection{{SectionID: uuidN('a', 0), EncryptedLabel: "ct"}}}
	for i := 0; i < nEnvelopes; i++ {
		r.Envelopes = append(r.Envelopes, ReaderEnvelope{ReaderPubkey: fmt.Sprintf("%064x", i+1), KeyEnvelope: "env"})
	}
	return r
}

func TestRevokeRules(t *testing.T) {
	if err := validRevoke(MaxGrants + 1).Validate(); err != nil {
		t.Fatalf("owner plus 256 grantees: %v", err)
	}
	if err := validRevoke(MaxGrants + 2).Validate(); rule(err) != "grants-limit" {
		t.Fatalf("258 envelopes: %v", err)
	}
	r := validRevoke(2)
	r.Envelopes = append(r.Envelopes, ReaderEnvelope{ReaderPubkey: r.ActorPubkey, KeyEnvelope: "env"})
	if err := r.Validate(); rule(err) != "revoked-envelope" {
		t.Fatalf("revoked reader gets an envelope: %v", err)
	}
	r = validRevoke(2)
	r.Envelopes[1].ReaderPubkey = r.Envelopes[0].ReaderPubkey
	if err := r.Validate(); rule(err) != "envelope-unique" {
		t.Fatalf("duplicate reader: %v", err)
	}
	r = validRevoke(1)
	r.NewKeyEpoch = 1
	if err := r.Validate(); rule(err) != "key-epoch" {
		t.Fatalf("epoch 1: %v", err)
	}
	r = validRevoke(0)
	if err := r.Validate(); rule(err) != "envelopes-owner" {
		t.Fatalf("no envelopes: %v", err)
	}
}

func TestGrantRules(t *testing.T) {
	g := &Grant{Version: 1, ActionID: uuidN('e', 1), ActorPubkey: strings.Repeat("4", 64), Role: RoleViewer, KeyEpoch: 1, KeyEnvelope: "e"}
	for _, r := range GrantableRoles {
		g.Role = r
		if err := g.Validate(); err != nil {
			t.Fatalf("%s: %v", r, err)
		}
	}
	for _, r := range []Role{RoleOwner, "admin", ""} {
		g.Role = r
		if err := g.Validate(); rule(err) != "role" {
			t.Fatalf("role %q: %v", r, err)
		}
	}
}

func signedCommand(t *testing.T, owner testKey, body Body) *nostr.Event {
	t.Helper()
	evt, err := CommandEvent(owner.pk, body, nostr.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := evt.Sign(owner.sk); err != nil {
		t.Fatal(err)
	}
	return evt
}

// "Every command has exactly one p tag naming the owner and exactly one action
// tag matching content's action_id"; grant and revoke have one actor tag equal
// to actor_pubkey.
func TestCommandTagGrammar(t *testing.T) {
	owner := newKey(t)
	grant := &Grant{Version: 1, ActionID: uuidN('e', 1), ActorPubkey: strings.Repeat("4", 64), Role: RoleViewer, KeyEpoch: 1, KeyEnvelope: "e"}
	move := &Move{Version: 1, ActionID: uuidN('e', 2), ChannelID: uuidN('c', 1), SectionID: ptr(uuidN('a', 1))}
	cases := []struct {
		name string
		body Body
		edit func(*nostr.Event)
		rule string
	}{
		{"two-p-tags", grant, func(e *nostr.Event) { e.Tags = append(e.Tags, nostr.Tag{"p", strings.Repeat("5", 64)}) }, "tag-p"},
		{"no-p-tag", grant, func(e *nostr.Event) { e.Tags = e.Tags[1:] }, "tag-p"},
		{"p-not-hex", grant, func(e *nostr.Event) { e.Tags[0][1] = "npub1xyz" }, "hex64"},
		{"no-action-tag", grant, func(e *nostr.Event) { e.Tags = e.Tags[:2] }, "tag-action"},
		{"two-action-tags", grant, func(e *nostr.Event) { e.Tags = append(e.Tags, e.Tags[2]) }, "tag-action"},
		{"action-tag-mismatch", grant, func(e *nostr.Event) { e.Tags[2][1] = uuidN('e', 9) }, "tag-action"},
		{"actor-tag-missing", grant, func(e *nostr.Event) { e.Tags = nostr.Tags{e.Tags[0], e.Tags[2]} }, "tag-actor"},
		{"actor-tag-mismatch", grant, func(e *nostr.Event) { e.Tags[1][1] = strings.Repeat("5", 64) }, "tag-actor"},
		{"actor-on-move", move, func(e *nostr.Event) { e.Tags = append(e.Tags, nostr.Tag{"actor", owner.pk}) }, "tag-actor"},
		{"unknown-tag", move, func(e *nostr.Event) { e.Tags = append(e.Tags, nostr.Tag{"t", "x"}) }, "tag-grammar"},
		{"tag-extra-value", move, func(e *nostr.Event) { e.Tags[0] = append(e.Tags[0], "wss://relay") }, "tag-grammar"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			evt := signedCommand(t, owner, tc.body)
			if _, err := ParseCommand(evt); err != nil {
				t.Fatalf("unedited command rejected: %v", err)
			}
			tc.edit(evt)
			if _, err := ParseCommand(evt); rule(err) != tc.rule {
				t.Fatalf("rule %s, want %s", rule(err), tc.rule)
			}
		})
	}
}

func TestGrantToOwnerRejected(t *testing.T) {
	owner := newKey(t)
	g := &Grant{Version: 1, ActionID: uuidN('e', 1), ActorPubkey: owner.pk, Role: RoleViewer, KeyEpoch: 1, KeyEnvelope: "e"}
	if _, err := ParseCommand(signedCommand(t, owner, g)); rule(err) != "actor-is-owner" {
		t.Fatalf("%v", err)
	}
}

// "Strict typed decoding rejects duplicate and unknown keys before
// canonicalization", and versions other than 1.
func TestCommandContentStrictness(t *testing.T) {
	owner := newKey(t)
	base := signedCommand(t, owner, &Move{Version: 1, ActionID: uuidN('e', 2), ChannelID: uuidN('c', 1), SectionID: ptr(uuidN('a', 1))})
	for name, content := range map[string]string{
		"duplicate-key":  strings.Replace(base.Content, `{"action_id"`, `{"version":1,"action_id"`, 1),
		"unknown-field":  strings.Replace(base.Content, `{"action_id"`, `{"extra":1,"action_id"`, 1),
		"version-2":      strings.Replace(base.Content, `"version":1`, `"version":2`, 1),
		"fraction":       strings.Replace(base.Content, `"version":1`, `"version":1.0`, 1),
		"trailing":       base.Content + "{}",
		"missing-field":  strings.Replace(base.Content, `"channel_id":"`+uuidN('c', 1)+`",`, "", 1),
		"case-folded":    strings.Replace(base.Content, `"version"`, `"Version"`, 1),
		"null-for-field": strings.Replace(base.Content, `"channel_id":"`+uuidN('c', 1)+`"`, `"channel_id":null`, 1),
	} {
		evt := *base
		evt.Content = content
		if evt.Content == base.Content {
			t.Fatalf("%s: edit did not apply", name)
		}
		if _, err := ParseCommand(&evt); err == nil {
			t.Errorf("%s: accepted %s", name, content)
		}
	}
}

func TestManageOpsHaveExactShapes(t *testing.T) {
	owner := newKey(t)
	add := &ManageSection{Version: 1, ActionID: uuidN('e', 3), Op: OpAdd, KeyEpoch: 1, SectionID: uuidN('a', 5), EncryptedLabel: "ct"}
	reorder := &ManageReorder{Version: 1, ActionID: uuidN('e', 4), Op: OpReorder, SectionIDs: []string{uuidN('a', 1), uuidN('a', 0)}}
	remove := &ManageRemove{Version: 1, ActionID: uuidN('e', 5), Op: OpRemove, SectionID: uuidN('a', 1)}
	for _, b := range []Body{add, reorder, remove} {
		cmd, err := ParseCommand(signedCommand(t, owner, b))
		if err != nil {
			t.Fatalf("%T: %v", b, err)
		}
		if cmd.Kind != KindManage {
			t.Fatalf("kind %d", cmd.Kind)
		}
	}
	// A reorder field on a remove is unknown to the remove shape.
	evt := signedCommand(t, owner, remove)
	evt.Content = strings.Replace(evt.Content, `{"action_id"`, `{"section_ids":[],"action_id"`, 1)
	if _, err := ParseCommand(evt); rule(err) != "content" {
		t.Fatalf("remove with section_ids: %v", err)
	}
	evt.Content = `{"action_id":"` + uuidN('e', 5) + `","op":"rotate","version":1}`
	if _, err := ParseCommand(evt); rule(err) != "manage-op" {
		t.Fatalf("unknown op: %v", err)
	}
	dup := &ManageReorder{Version: 1, ActionID: uuidN('e', 4), Op: OpReorder, SectionIDs: []string{uuidN('a', 1), uuidN('a', 1)}}
	if err := dup.Validate(); rule(err) != "section-unique" {
		t.Fatalf("duplicate in reorder: %v", err)
	}
}

func TestCommandEventRefusesInvalidBodyBeforeSigning(t *testing.T) {
	if _, err := CommandEvent(testOwner, validImport(MaxSections+1, 0), 1); rule(err) != "sections-limit" {
		t.Fatalf("%v", err)
	}
}

func TestNewActionIDIsLowercaseV4(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 100; i++ {
		id, err := NewActionID()
		if err != nil || !IsUUID(id) || id[14] != '4' || !strings.ContainsRune("89ab", rune(id[19])) || seen[id] {
			t.Fatalf("%q %v", id, err)
		}
		seen[id] = true
	}
}

// A move whose section_id is null unassigns the channel; the key must be
// present (strict decoding has no omitted fields), and a nil-UUID section is
// still refused.
func TestMoveWithNullSectionUnassigns(t *testing.T) {
	owner := newKey(t)
	un := &Move{Version: 1, ActionID: uuidN('e', 6), ChannelID: uuidN('c', 1)}
	cmd, err := ParseCommand(signedCommand(t, owner, un))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"action_id":"` + uuidN('e', 6) + `","channel_id":"` + uuidN('c', 1) + `","section_id":null,"version":1}`; string(cmd.Canonical) != want {
		t.Fatalf("unassign content %s, want %s", cmd.Canonical, want)
	}
	if m := cmd.Body.(*Move); !m.Unassigns() {
		t.Fatal("parsed move does not unassign")
	}
	omitted := `{"action_id":"` + uuidN('e', 6) + `","channel_id":"` + uuidN('c', 1) + `","version":1}`
	if _, err := DecodeBody(KindMove, []byte(omitted)); err == nil {
		t.Error("a move without section_id decoded")
	}
	nilSection := &Move{Version: 1, ActionID: uuidN('e', 7), ChannelID: uuidN('c', 1), SectionID: ptr("00000000-0000-0000-0000-000000000000")}
	if err := nilSection.Validate(); err == nil || !strings.Contains(err.Error(), "uuid-nil") {
		t.Errorf("nil section: %v", err)
	}
	w := &Workspace{}
	if _, err := w.UnassignBody(uuidN('c', 1)); err == nil || !strings.Contains(err.Error(), "channel-unassigned") {
		t.Errorf("unassign of a channel in no section: %v", err)
	}
}
