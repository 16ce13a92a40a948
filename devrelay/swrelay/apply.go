package swrelay

import (
	"fmt"

	"github.com/roster-cli/roster/workspace/sections"
)

// applyCtx is what stateful rules need beyond the workspace.
type applyCtx struct {
	community string
	channels  func(community, channel string) bool
}

func (c applyCtx) channelExists(id string) bool {
	return c.channels == nil || c.channels(c.community, id)
}

// apply mutates w (a clone) by one authorized, statically valid command and
// returns the pubkeys whose live subscriptions must be evicted.
func (w *workspace) apply(ctx applyCtx, cmd *sections.Command) ([]string, error) {
	if cmd.Kind != sections.KindImport && w.revision == 0 {
		return nil, fmt.Errorf("workspace-missing: the owner has not imported this workspace yet (kind %d first)", sections.KindImport)
	}
	switch b := cmd.Body.(type) {
	case *sections.Import:
		return nil, w.applyImport(ctx, b)
	case *sections.Grant:
		return nil, w.applyGrant(b)
	case *sections.Revoke:
		return []string{b.ActorPubkey}, w.applyRevoke(b)
	case *sections.Move:
		return nil, w.applyMove(ctx, b)
	case *sections.ManageSection:
		return nil, w.applySection(b)
	case *sections.ManageReorder:
		return nil, w.applyReorder(b)
	case *sections.ManageRemove:
		return nil, w.applyRemove(b)
	}
	return nil, fmt.Errorf("kind %d has no handler", cmd.Kind)
}

// advance moves to the next revision (and layout revision when the section
// layout or its ciphertexts change).
func (w *workspace) advance(layout bool) {
	w.revision++
	if layout {
		w.layoutRevision++
	}
}

func (w *workspace) applyImport(ctx applyCtx, c *sections.Import) error {
	if w.revision != 0 || w.migration != nil {
		return fmt.Errorf("import-once: the workspace is already imported (revision %d, migration marker present); a different import is rejected", w.revision)
	}
	w.sections = make([]sectionRow, len(c.Sections))
	for _, s := range c.Sections {
		w.sections[s.Rank] = sectionRow{id: s.ID, encLabel: s.EncryptedLabel, encIcon: s.EncryptedIcon}
	}
	for _, a := range c.Assignments {
		if !ctx.channelExists(a.ChannelID) {
			return fmt.Errorf("channel-missing: channel %s does not exist in %s or is deleted", a.ChannelID, ctx.community)
		}
		w.assignments[a.ChannelID] = assignmentRow{section: a.SectionID, revision: 1}
	}
	w.keyEpoch = 1
	w.envelopes[1] = map[string]string{w.owner: c.OwnerKeyEnvelope}
	w.migration = &sections.Migration{SourceEventID: c.SourceEventID, SourceHash: c.SourceHash}
	w.revision, w.layoutRevision = 1, 1
	return nil
}

func (w *workspace) applyGrant(c *sections.Grant) error {
	if c.KeyEpoch != w.keyEpoch {
		return fmt.Errorf("key-epoch: the envelope is for epoch %d, the workspace is at epoch %d", c.KeyEpoch, w.keyEpoch)
	}
	if g, ok := w.grants[c.ActorPubkey]; !ok || !g.active {
		if w.activeGrants() >= sections.MaxGrants {
			return fmt.Errorf("grants-limit: the workspace already has %d active grants", sections.MaxGrants)
		}
	}
	// Grant and current-epoch envelope installation are one transaction.
	w.grants[c.ActorPubkey] = grantRow{role: c.Role, active: true}
	w.envelopes[w.keyEpoch][c.ActorPubkey] = c.KeyEnvelope
	w.advance(false)
	return nil
}

func (w *workspace) applyRevoke(c *sections.Revoke) error {
	if g, ok := w.grants[c.ActorPubkey]; !ok || !g.active {
		return fmt.Errorf("grant-missing: %s holds no active grant", c.ActorPubkey)
	}
	if c.NewKeyEpoch != w.keyEpoch+1 {
		return fmt.Errorf("key-epoch: new_key_epoch %d must be the current epoch %d plus one", c.NewKeyEpoch, w.keyEpoch)
	}
	if len(c.Sections) != len(w.sections) {
		return fmt.Errorf("revoke-sections: %d sections re-encrypted, the workspace has %d active", len(c.Sections), len(w.sections))
	}
	relabel := map[string]sections.ReencryptedSection{}
	for _, s := range c.Sections {
		if w.sectionIndex(s.SectionID) < 0 {
			return fmt.Errorf("revoke-sections: %s is not an active section", s.SectionID)
		}
		relabel[s.SectionID] = s
	}
	w.grants[c.ActorPubkey] = grantRow{role: w.grants[c.ActorPubkey].role, active: false}
	want := map[string]bool{}
	for _, pk := range w.readers() {
		want[pk] = true
	}
	if len(c.Envelopes) != len(want) {
		return fmt.Errorf("revoke-envelopes: %d envelopes, want exactly one for the owner and each of %d remaining grantees", len(c.Envelopes), len(want)-1)
	}
	next := map[string]string{}
	for _, e := range c.Envelopes {
		if !want[e.ReaderPubkey] {
			return fmt.Errorf("revoke-envelopes: %s is not the owner or a remaining grantee", e.ReaderPubkey)
		}
		next[e.ReaderPubkey] = e.KeyEnvelope
	}
	for i, s := range w.sections {
		r := relabel[s.id]
		w.sections[i] = sectionRow{id: s.id, encLabel: r.EncryptedLabel, encIcon: r.EncryptedIcon}
	}
	w.keyEpoch = c.NewKeyEpoch
	w.envelopes[w.keyEpoch] = next
	w.advance(true)
	return nil
}

func (w *workspace) applyMove(ctx applyCtx, c *sections.Move) error {
	if c.Unassigns() {
		// Unassigning needs no channel lookup: a deleted channel may still
		// be taken out of its section.
		if _, ok := w.assignments[c.ChannelID]; !ok {
			return fmt.Errorf("channel-unassigned: channel %s is in no section", c.ChannelID)
		}
		delete(w.assignments, c.ChannelID)
		w.advance(false)
		return nil
	}
	if w.sectionIndex(*c.SectionID) < 0 {
		return fmt.Errorf("section-missing: %s is not an active section", *c.SectionID)
	}
	if !ctx.channelExists(c.ChannelID) {
		return fmt.Errorf("channel-missing: channel %s does not exist in %s or is deleted", c.ChannelID, ctx.community)
	}
	if _, ok := w.assignments[c.ChannelID]; !ok && len(w.assignments) >= sections.MaxAssignments {
		return fmt.Errorf("assignments-limit: the workspace already has %d assignments", sections.MaxAssignments)
	}
	w.advance(false)
	w.assignments[c.ChannelID] = assignmentRow{section: *c.SectionID, revision: w.revision}
	return nil
}

func (w *workspace) applySection(c *sections.ManageSection) error {
	if c.KeyEpoch != w.keyEpoch {
		return fmt.Errorf("key-epoch: the label is encrypted for epoch %d, the workspace is at epoch %d", c.KeyEpoch, w.keyEpoch)
	}
	row := sectionRow{id: c.SectionID, encLabel: c.EncryptedLabel, encIcon: c.EncryptedIcon}
	i := w.sectionIndex(c.SectionID)
	switch c.Op {
	case sections.OpAdd:
		if i >= 0 {
			return fmt.Errorf("section-unique: section %s already exists", c.SectionID)
		}
		if len(w.sections) >= sections.MaxSections {
			return fmt.Errorf("sections-limit: the workspace already has %d sections", sections.MaxSections)
		}
		w.sections = append(w.sections, row)
	case sections.OpRename:
		if i < 0 {
			return fmt.Errorf("section-missing: %s is not an active section", c.SectionID)
		}
		w.sections[i] = row
	}
	w.advance(true)
	return nil
}

func (w *workspace) applyReorder(c *sections.ManageReorder) error {
	if len(c.SectionIDs) != len(w.sections) {
		return fmt.Errorf("ranks-permutation: reorder lists %d sections, the workspace has %d", len(c.SectionIDs), len(w.sections))
	}
	next := make([]sectionRow, 0, len(w.sections))
	for _, id := range c.SectionIDs {
		i := w.sectionIndex(id)
		if i < 0 {
			return fmt.Errorf("ranks-permutation: %s is not an active section", id)
		}
		next = append(next, w.sections[i])
	}
	w.sections = next
	w.advance(true)
	return nil
}

func (w *workspace) applyRemove(c *sections.ManageRemove) error {
	i := w.sectionIndex(c.SectionID)
	if i < 0 {
		return fmt.Errorf("section-missing: %s is not an active section", c.SectionID)
	}
	w.sections = append(w.sections[:i], w.sections[i+1:]...)
	for ch, a := range w.assignments {
		if a.section == c.SectionID {
			delete(w.assignments, ch)
		}
	}
	w.advance(true)
	return nil
}
