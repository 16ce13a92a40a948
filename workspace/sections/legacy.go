package sections

import (
	"context"
	"sort"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/signer"
	"github.com/roster-cli/roster/workspace/strictjson"
)

// LegacySection is one section of the legacy whole-store blob.
type LegacySection struct {
	ID    string  `json:"id"`
	Name  string  `json:"name"`
	Icon  *string `json:"icon,omitempty"`
	Order int     `json:"order"`
}

// LegacyBlob is the plaintext of kind 30078 d=channel-sections (the fixture's
// canonicalization.legacy_plaintext.input): assignments map channel -> section.
type LegacyBlob struct {
	Version     int               `json:"version"`
	Sections    []LegacySection   `json:"sections"`
	Assignments map[string]string `json:"assignments"`
}

// LegacySource is a decrypted, strictly decoded legacy event ready to import.
type LegacySource struct {
	Event     *nostr.Event
	Blob      *LegacyBlob
	Canonical []byte // canonical plaintext
	Hash      string // source_hash: SHA-256 of Canonical
}

// ParseLegacy strictly decodes legacy plaintext (version 1 only) and returns
// its canonical bytes and source hash.
func ParseLegacy(plaintext []byte) (*LegacyBlob, []byte, string, error) {
	var blob LegacyBlob
	if err := strictjson.DecodeStrict(plaintext, &blob); err != nil {
		return nil, nil, "", ruleErr("legacy-content", "%v", err)
	}
	if err := checkVersion(blob.Version); err != nil {
		return nil, nil, "", err
	}
	canonical, err := strictjson.CanonicalizeRaw(plaintext)
	if err != nil {
		return nil, nil, "", ruleErr("legacy-content", "%v", err)
	}
	return &blob, canonical, strictjson.SHA256Hex(canonical), nil
}

// NewestLegacy picks the newest valid kind 30078 d=channel-sections event of
// owner (created_at descending, lowest id first on ties, as NIP-01 orders
// replaceable events), decrypting its content with s (NIP-44 to self). Plain
// JSON content is read as-is. Events that fail to decrypt or decode are skipped.
func NewestLegacy(ctx context.Context, s signer.Signer, owner string, events []*nostr.Event) (*LegacySource, error) {
	cands := make([]*nostr.Event, 0, len(events))
	for _, e := range events {
		if e.Kind == KindLegacy && e.PubKey == owner && e.Tags.GetD() == LegacyD {
			cands = append(cands, e)
		}
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].CreatedAt != cands[j].CreatedAt {
			return cands[i].CreatedAt > cands[j].CreatedAt
		}
		return cands[i].ID < cands[j].ID
	})
	var lastErr error
	for _, e := range cands {
		if ok, err := e.CheckSignature(); !ok || err != nil || !e.CheckID() {
			continue
		}
		plaintext := e.Content
		if !strings.HasPrefix(strings.TrimSpace(plaintext), "{") {
			pt, err := s.Decrypt(ctx, e.Content, owner)
			if err != nil {
				lastErr = err
				continue
			}
			plaintext = pt
		}
		blob, canonical, hash, err := ParseLegacy([]byte(plaintext))
		if err != nil {
			lastErr = err
			continue
		}
		if _, err := legacySections(blob); err != nil {
			lastErr = err
			continue
		}
		return &LegacySource{Event: e, Blob: blob, Canonical: canonical, Hash: hash}, nil
	}
	if lastErr != nil {
		return nil, ruleErr("legacy-missing", "no valid kind %d d=%s event: the newest failed with: %v", KindLegacy, LegacyD, lastErr)
	}
	return nil, ruleErr("legacy-missing", "no kind %d d=%s event by %s", KindLegacy, LegacyD, graph.Npub(owner))
}

// legacySections orders legacy sections by (order, id) into ranks 0..n-1.
func legacySections(blob *LegacyBlob) ([]LegacySection, error) {
	secs := append([]LegacySection(nil), blob.Sections...)
	sort.SliceStable(secs, func(i, j int) bool {
		if secs[i].Order != secs[j].Order {
			return secs[i].Order < secs[j].Order
		}
		return secs[i].ID < secs[j].ID
	})
	ids := make([]string, len(secs))
	for i, s := range secs {
		ids[i] = s.ID
		if s.Name == "" {
			return nil, ruleErr("legacy-content", "section %s has no name", s.ID)
		}
	}
	set, err := checkSectionIDs(ids)
	if err != nil {
		return nil, err
	}
	if len(blob.Assignments) > MaxAssignments {
		return nil, ruleErr("assignments-limit", "%d assignments, limit %d", len(blob.Assignments), MaxAssignments)
	}
	for ch, sec := range blob.Assignments {
		if err := checkID("channel id", ch); err != nil {
			return nil, err
		}
		if !set[sec] {
			return nil, ruleErr("assignment-destination", "channel %s is assigned to unknown section %q", ch, sec)
		}
	}
	return secs, nil
}

// ImportBody builds the 9050 import of src: a fresh workspace key, the owner's
// envelope, and every section's label and icon encrypted at epoch 1. It
// returns the key so the caller can verify the read-back projection.
func ImportBody(ctx context.Context, s signer.Signer, community, owner string, src *LegacySource) (*Import, []byte, error) {
	secs, err := legacySections(src.Blob)
	if err != nil {
		return nil, nil, err
	}
	key, err := NewKey()
	if err != nil {
		return nil, nil, err
	}
	env, err := WrapKey(ctx, s, key, owner)
	if err != nil {
		return nil, nil, err
	}
	action, err := NewActionID()
	if err != nil {
		return nil, nil, err
	}
	body := &Import{Version: Version, ActionID: action, SourceEventID: src.Event.ID, SourceHash: src.Hash,
		KeyEpoch: 1, OwnerKeyEnvelope: env, Sections: []ImportSection{}, Assignments: []Assignment{}}
	for rank, sec := range secs {
		label, icon, err := SealSection(key, community, owner, sec.ID, 1, sec.Name, sec.Icon)
		if err != nil {
			return nil, nil, err
		}
		body.Sections = append(body.Sections, ImportSection{ID: sec.ID, Rank: rank, EncryptedLabel: label, EncryptedIcon: icon})
	}
	channels := make([]string, 0, len(src.Blob.Assignments))
	for ch := range src.Blob.Assignments {
		channels = append(channels, ch)
	}
	sort.Strings(channels)
	for _, ch := range channels {
		body.Assignments = append(body.Assignments, Assignment{ChannelID: ch, SectionID: src.Blob.Assignments[ch]})
	}
	return body, key, nil
}

// MarkerMatches reports whether projection p carries the migration marker of src.
func MarkerMatches(p *Projection, src *LegacySource) bool {
	return p != nil && p.Migration != nil && p.Migration.SourceEventID == src.Event.ID && p.Migration.SourceHash == src.Hash
}

// NewLegacySource builds and signs (with s, as owner) the kind 30078
// d=channel-sections event carrying blob, NIP-44 encrypted to the owner as
// the legacy clients write it, and returns it as an import source: the event,
// the blob, its canonical plaintext and source hash. It publishes nothing.
// `workspace create` uses it with an empty blob, the demo seed with a
// populated one; both then import it like any legacy blob.
func NewLegacySource(ctx context.Context, s signer.Signer, owner string, blob LegacyBlob, createdAt nostr.Timestamp) (*LegacySource, error) {
	if blob.Sections == nil {
		blob.Sections = []LegacySection{}
	}
	if blob.Assignments == nil {
		blob.Assignments = map[string]string{}
	}
	plaintext, err := strictjson.Canonical(blob)
	if err != nil {
		return nil, err
	}
	parsed, canonical, hash, err := ParseLegacy(plaintext)
	if err != nil {
		return nil, err
	}
	if _, err := legacySections(parsed); err != nil {
		return nil, err
	}
	ct, err := s.Encrypt(ctx, string(plaintext), owner)
	if err != nil {
		return nil, err
	}
	evt := &nostr.Event{Kind: KindLegacy, CreatedAt: createdAt, Tags: nostr.Tags{{"d", LegacyD}}, Content: ct}
	if err := s.SignEvent(ctx, evt); err != nil {
		return nil, err
	}
	if evt.PubKey != owner {
		return nil, ruleErr("legacy-signer", "the legacy blob was signed by %s, not the owner %s", evt.PubKey, owner)
	}
	return &LegacySource{Event: evt, Blob: parsed, Canonical: canonical, Hash: hash}, nil
}
