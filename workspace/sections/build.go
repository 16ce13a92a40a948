package sections

import (
	"context"
	"fmt"
	"github.com/nbd-wtf/go-nostr/nip19"
	"sort"

	"github.com/roster-cli/roster/signer"
)

// Builders turn a user's intent and the opened workspace into a command body.
// They only build; CommandEvent validates and the caller signs.

// GrantBody wraps the current key for grantee at the current epoch.
func (w *Workspace) GrantBody(ctx context.Context, s signer.Signer, grantee string, role Role) (*Grant, error) {
	if !ValidGrantRole(role) {
		return nil, ruleErr("role", "role %q is not viewer, mover or manager", role)
	}
	if grantee == w.Owner {
		return nil, ruleErr("actor-is-owner", "the owner's authority is implicit; it cannot be granted")
	}
	// Readers are the owner and the active grantees. Changing an existing
	// grantee's role is not a new grant.
	if _, already := w.Readers[grantee]; !already && len(w.Readers)-1 >= MaxGrants {
		return nil, ruleErr("grants-limit", "the workspace already has %d active grants, the limit; revoke one first", MaxGrants)
	}
	env, err := WrapKey(ctx, s, w.Key, grantee)
	if err != nil {
		return nil, err
	}
	id, err := NewActionID()
	if err != nil {
		return nil, err
	}
	return &Grant{Version: Version, ActionID: id, ActorPubkey: grantee, Role: role, KeyEpoch: w.KeyEpoch, KeyEnvelope: env}, nil
}

// RevokeBody revokes reader: a fresh key at epoch+1, every active section
// re-encrypted under it, and one envelope for the owner and each remaining
// reader, none for the revoked one.
func (w *Workspace) RevokeBody(ctx context.Context, s signer.Signer, reader string) (*Revoke, error) {
	if reader == w.Owner {
		return nil, ruleErr("actor-is-owner", "the owner's authority is implicit; it cannot be revoked")
	}
	if _, ok := w.Readers[reader]; !ok {
		npub, _ := nip19.EncodePublicKey(reader)
		return nil, ruleErr("grant-missing", "%s holds no active grant in this workspace", npub)
	}
	key, err := NewKey()
	if err != nil {
		return nil, err
	}
	epoch := w.KeyEpoch + 1
	body := &Revoke{Version: Version, ActorPubkey: reader, NewKeyEpoch: epoch,
		Sections: []ReencryptedSection{}, Envelopes: []ReaderEnvelope{}}
	if body.ActionID, err = NewActionID(); err != nil {
		return nil, err
	}
	for _, sec := range w.Sections {
		label, icon, err := SealSection(key, w.Community, w.Owner, sec.ID, epoch, sec.Label, sec.Icon)
		if err != nil {
			return nil, err
		}
		body.Sections = append(body.Sections, ReencryptedSection{SectionID: sec.ID, EncryptedLabel: label, EncryptedIcon: icon})
	}
	readers := make([]string, 0, len(w.Readers))
	for pk := range w.Readers {
		if pk != reader {
			readers = append(readers, pk)
		}
	}
	sort.Strings(readers)
	for _, pk := range readers {
		env, err := WrapKey(ctx, s, key, pk)
		if err != nil {
			return nil, err
		}
		body.Envelopes = append(body.Envelopes, ReaderEnvelope{ReaderPubkey: pk, KeyEnvelope: env})
	}
	return body, nil
}

// MoveBody puts channel in the section named by sectionRef (id or label).
func (w *Workspace) MoveBody(channel, sectionRef string) (*Move, error) {
	if err := checkID("channel", channel); err != nil {
		return nil, err
	}
	sec, err := w.FindSection(sectionRef)
	if err != nil {
		return nil, err
	}
	if !w.assigned(channel) && len(w.Assignments) >= MaxAssignments {
		return nil, ruleErr("assignments-limit", "the workspace already assigns %d channels, the limit; remove a section to unassign its channels", MaxAssignments)
	}
	id, err := NewActionID()
	if err != nil {
		return nil, err
	}
	return &Move{Version: Version, ActionID: id, ChannelID: channel, SectionID: &sec.ID}, nil
}

// UnassignBody takes channel out of its section: a move with a null
// section_id. A channel that has no section is refused, so a command never
// changes nothing.
func (w *Workspace) UnassignBody(channel string) (*Move, error) {
	if err := checkID("channel", channel); err != nil {
		return nil, err
	}
	if !w.assigned(channel) {
		return nil, ruleErr("channel-unassigned", "channel %s is in no section of this workspace", channel)
	}
	id, err := NewActionID()
	if err != nil {
		return nil, err
	}
	return &Move{Version: Version, ActionID: id, ChannelID: channel}, nil
}

// assigned reports whether channel already has a section: moving it
// replaces that assignment.
func (w *Workspace) assigned(channel string) bool {
	for _, a := range w.Assignments {
		if a.ChannelID == channel {
			return true
		}
	}
	return false
}

// AddBody appends a new section with label and optional icon.
func (w *Workspace) AddBody(label string, icon *string) (*ManageSection, error) {
	if len(w.Sections) >= MaxSections {
		return nil, ruleErr("sections-limit", "the workspace already has %d sections, the limit", MaxSections)
	}
	id, err := NewActionID() // a random v4 UUID serves as the section id too
	if err != nil {
		return nil, err
	}
	return w.sectionBody(OpAdd, id, label, icon)
}

// RenameBody gives the section named by ref a new label (and icon).
func (w *Workspace) RenameBody(ref, label string, icon *string) (*ManageSection, error) {
	sec, err := w.FindSection(ref)
	if err != nil {
		return nil, err
	}
	return w.sectionBody(OpRename, sec.ID, label, icon)
}

func (w *Workspace) sectionBody(op ManageOp, sectionID, label string, icon *string) (*ManageSection, error) {
	if label == "" {
		return nil, fmt.Errorf("a section label cannot be empty")
	}
	encLabel, encIcon, err := w.Seal(sectionID, label, icon)
	if err != nil {
		return nil, err
	}
	action, err := NewActionID()
	if err != nil {
		return nil, err
	}
	return &ManageSection{Version: Version, ActionID: action, Op: op, KeyEpoch: w.KeyEpoch,
		SectionID: sectionID, EncryptedLabel: encLabel, EncryptedIcon: encIcon}, nil
}

// ReorderBody sets the complete new order; refs must name every section once.
func (w *Workspace) ReorderBody(refs []string) (*ManageReorder, error) {
	if len(refs) != len(w.Sections) {
		return nil, ruleErr("reorder-permutation", "reorder names %d sections; the workspace has %d and every one must be listed once", len(refs), len(w.Sections))
	}
	ids := make([]string, len(refs))
	seen := map[string]bool{}
	for i, ref := range refs {
		sec, err := w.FindSection(ref)
		if err != nil {
			return nil, err
		}
		if seen[sec.ID] {
			return nil, ruleErr("reorder-permutation", "section %q is listed twice", ref)
		}
		seen[sec.ID] = true
		ids[i] = sec.ID
	}
	action, err := NewActionID()
	if err != nil {
		return nil, err
	}
	return &ManageReorder{Version: Version, ActionID: action, Op: OpReorder, SectionIDs: ids}, nil
}

// RemoveBody deletes the section named by ref.
func (w *Workspace) RemoveBody(ref string) (*ManageRemove, error) {
	sec, err := w.FindSection(ref)
	if err != nil {
		return nil, err
	}
	action, err := NewActionID()
	if err != nil {
		return nil, err
	}
	return &ManageRemove{Version: Version, ActionID: action, Op: OpRemove, SectionID: sec.ID}, nil
}
