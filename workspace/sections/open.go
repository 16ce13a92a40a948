package sections

import (
	"context"
	"fmt"

	"github.com/roster-cli/roster/signer"
)

// Section is a decrypted section.
type Section struct {
	ID    string  `json:"id"`
	Rank  int     `json:"rank"`
	Label string  `json:"label"`
	Icon  *string `json:"icon"`
}

// Workspace is a verified projection opened with the reader's key.
type Workspace struct {
	Community      string
	Owner          string
	Revision       int64
	LayoutRevision int64
	KeyEpoch       int64
	Migration      *Migration
	Key            []byte
	Sections       []Section
	Assignments    []ProjectedAssignment
	Readers        map[string]Role
}

// Open unwraps the reader's key envelope with s and decrypts every label and
// icon with the exact AAD (community, owner, section, epoch, purpose). Any
// authentication failure is an error; there is no fallback AAD.
func Open(ctx context.Context, s signer.Signer, community string, v *VerifiedProjection) (*Workspace, error) {
	p := v.Projection
	key, err := UnwrapKey(ctx, s, p.ReaderKeyEnvelope, p.OwnerPubkey)
	if err != nil {
		return nil, err
	}
	w := &Workspace{
		Community: community, Owner: p.OwnerPubkey, Revision: p.Revision, LayoutRevision: p.LayoutRevision,
		KeyEpoch: p.KeyEpoch, Migration: p.Migration, Key: key, Assignments: p.Assignments, Readers: v.Readers,
	}
	for _, ps := range p.Sections {
		aad := AAD{Version: Version, Community: community, OwnerPubkey: p.OwnerPubkey, SectionID: ps.ID, KeyEpoch: p.KeyEpoch, Purpose: PurposeLabel}
		label, err := DecryptMetadata(key, aad, ps.EncryptedLabel)
		if err != nil {
			return nil, fmt.Errorf("section %s label: %w", ps.ID, err)
		}
		sec := Section{ID: ps.ID, Rank: ps.Rank, Label: label}
		if ps.EncryptedIcon != nil {
			aad.Purpose = PurposeIcon
			icon, err := DecryptMetadata(key, aad, *ps.EncryptedIcon)
			if err != nil {
				return nil, fmt.Errorf("section %s icon: %w", ps.ID, err)
			}
			sec.Icon = &icon
		}
		w.Sections = append(w.Sections, sec)
	}
	return w, nil
}

// Seal encrypts a label and optional icon for section id under w's key and epoch.
func (w *Workspace) Seal(id, label string, icon *string) (encLabel string, encIcon *string, err error) {
	return SealSection(w.Key, w.Community, w.Owner, id, w.KeyEpoch, label, icon)
}

// SealSection encrypts one section's label and optional icon.
func SealSection(key []byte, community, owner, id string, epoch int64, label string, icon *string) (string, *string, error) {
	aad := AAD{Version: Version, Community: community, OwnerPubkey: owner, SectionID: id, KeyEpoch: epoch, Purpose: PurposeLabel}
	encLabel, err := EncryptMetadata(key, aad, label)
	if err != nil {
		return "", nil, err
	}
	if icon == nil {
		return encLabel, nil, nil
	}
	aad.Purpose = PurposeIcon
	encIcon, err := EncryptMetadata(key, aad, *icon)
	if err != nil {
		return "", nil, err
	}
	return encLabel, &encIcon, nil
}

// FindSection resolves a section by id or by exact decrypted label.
func (w *Workspace) FindSection(ref string) (*Section, error) {
	for i := range w.Sections {
		if w.Sections[i].ID == ref {
			return &w.Sections[i], nil
		}
	}
	var found *Section
	for i := range w.Sections {
		if w.Sections[i].Label == ref {
			if found != nil {
				return nil, fmt.Errorf("two sections are labelled %q; name it by id (%s or %s)", ref, found.ID, w.Sections[i].ID)
			}
			found = &w.Sections[i]
		}
	}
	if found == nil {
		return nil, fmt.Errorf("no section %q in this workspace; run `roster workspace show` to list them", ref)
	}
	return found, nil
}
