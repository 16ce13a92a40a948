package sections

import (
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/workspace/strictjson"
)

// Migration is the marker an accepted import leaves: the legacy event it
// came from and the SHA-256 of that event's canonical plaintext.
type Migration struct {
	SourceEventID string `json:"source_event_id"`
	SourceHash    string `json:"source_hash"`
}

// ProjectedSection is one ordered, encrypted section of a projection.
type ProjectedSection struct {
	ID             string  `json:"id"`
	Rank           int     `json:"rank"`
	EncryptedLabel string  `json:"encrypted_label"`
	EncryptedIcon  *string `json:"encrypted_icon"`
}

// ProjectedAssignment is a channel's current section and the workspace
// revision that set it.
type ProjectedAssignment struct {
	ChannelID string `json:"channel_id"`
	SectionID string `json:"section_id"`
	Revision  int64  `json:"revision"`
}

// Projection is kind 30623 content as the fixture's projection_cases define it.
type Projection struct {
	Version           int                   `json:"version"`
	OwnerPubkey       string                `json:"owner_pubkey"`
	Revision          int64                 `json:"revision"`
	LayoutRevision    int64                 `json:"layout_revision"`
	KeyEpoch          int64                 `json:"key_epoch"`
	Migration         *Migration            `json:"migration"`
	ReaderKeyEnvelope string                `json:"reader_key_envelope"`
	Sections          []ProjectedSection    `json:"sections"`
	Assignments       []ProjectedAssignment `json:"assignments"`
}

// RoleTag is roster's tag on a projection naming each authorized reader's
// role: ["role", <pubkey>, "owner|viewer|mover|manager"] (docs/workspaces.md).
// Clients use their own entry to refuse a command before signing it.
const RoleTag = "role"

// DecodeProjection strictly decodes projection content and checks its
// internal consistency. Project-state content ({"v":1,...}) fails here as an
// unknown field.
func DecodeProjection(content []byte) (*Projection, error) {
	var p Projection
	if err := strictjson.DecodeStrict(content, &p); err != nil {
		return nil, ruleErr("projection-content", "%v", err)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &p, nil
}

// Validate checks a projection's fields against the command rules they came from.
func (p *Projection) Validate() error {
	if err := checkVersion(p.Version); err != nil {
		return err
	}
	if err := checkHex64("owner_pubkey", p.OwnerPubkey); err != nil {
		return err
	}
	if p.Revision < 1 || p.LayoutRevision < 1 || p.KeyEpoch < 1 {
		return ruleErr("projection-revision", "revision %d, layout_revision %d and key_epoch %d must all be at least 1", p.Revision, p.LayoutRevision, p.KeyEpoch)
	}
	if p.Migration != nil {
		if err := checkHex64("migration source_event_id", p.Migration.SourceEventID); err != nil {
			return err
		}
		if err := checkHex64("migration source_hash", p.Migration.SourceHash); err != nil {
			return err
		}
	}
	if err := checkEnvelope("reader_key_envelope", p.ReaderKeyEnvelope); err != nil {
		return err
	}
	ids := make([]string, len(p.Sections))
	for i, s := range p.Sections {
		ids[i] = s.ID
		if s.Rank != i {
			return ruleErr("ranks-permutation", "projection sections must be ordered by rank 0..%d", len(p.Sections)-1)
		}
		if err := checkLabelAndIcon(s.EncryptedLabel, s.EncryptedIcon); err != nil {
			return err
		}
	}
	set, err := checkSectionIDs(ids)
	if err != nil {
		return err
	}
	as := make([]Assignment, len(p.Assignments))
	for i, a := range p.Assignments {
		as[i] = Assignment{ChannelID: a.ChannelID, SectionID: a.SectionID}
		if a.Revision < 1 || a.Revision > p.Revision {
			return ruleErr("projection-revision", "assignment of %s has revision %d outside 1..%d", a.ChannelID, a.Revision, p.Revision)
		}
	}
	return checkAssignments(as, set)
}

// VerifiedProjection is a projection event that passed VerifyProjection.
type VerifiedProjection struct {
	Event      *nostr.Event
	Projection *Projection
	// Readers maps every authorized reader (p tags) to its role (role tags;
	// RoleReader when a p tag has no role tag: a relay that does not
	// publish roles leaves the decision to itself).
	Readers map[string]Role
}

// VerifyProjection accepts evt only as owner's workspace projection signed by
// the relay identity relaySelf (its NIP-11 `self`): valid id and signature,
// kind 30623, exactly one d tag equal to owner, no NIP-PC `a`/`rev` tags, the
// owner among the p tags, and strictly valid version-1 content for owner.
func VerifyProjection(evt *nostr.Event, relaySelf, owner string) (*VerifiedProjection, error) {
	return VerifyProjectionFor(evt, relaySelf, owner, "")
}

// BuzzD is the d tag Buzz's relay gives the projection it delivers to
// reader: "<owner>:<reader>" (docs/workspaces.md, where NIP-SW says
// d=<owner>). roster reads that shape too, and never writes it.
func BuzzD(owner, reader string) string { return owner + ":" + reader }

// VerifyProjectionFor is VerifyProjection for the projection delivered to
// reader: it also accepts Buzz's d=<owner>:<reader> address, but only with
// reader's own pubkey after the colon and reader among the p tags, so a
// copy addressed to another reader (their key envelope, not yours) is
// refused. With reader "" only NIP-SW's d=<owner> is accepted.
func VerifyProjectionFor(evt *nostr.Event, relaySelf, owner, reader string) (*VerifiedProjection, error) {
	if evt == nil {
		return nil, ruleErr("projection-missing", "no projection")
	}
	if evt.Kind != KindProjection {
		return nil, ruleErr("projection-kind", "kind %d is not %d", evt.Kind, KindProjection)
	}
	if !IsHex64(relaySelf) {
		return nil, ruleErr("projection-signer", "the relay advertises no NIP-11 self pubkey; a projection cannot be trusted without one")
	}
	if evt.PubKey != relaySelf {
		return nil, ruleErr("projection-signer", "projection signed by %s, but the relay's NIP-11 self is %s", evt.PubKey, relaySelf)
	}
	if !evt.CheckID() {
		return nil, ruleErr("projection-signature", "projection id does not match its content")
	}
	if ok, err := evt.CheckSignature(); !ok || err != nil {
		return nil, ruleErr("projection-signature", "projection signature is invalid")
	}
	var d []string
	readers := map[string]Role{}
	roles := map[string]Role{}
	for _, tag := range evt.Tags {
		if len(tag) < 2 {
			continue
		}
		switch tag[0] {
		case "d":
			d = append(d, tag[1])
		case "a", "rev":
			return nil, ruleErr("projection-shape", "an %q tag marks NIP-PC project state, not a workspace projection", tag[0])
		case "p":
			readers[tag[1]] = RoleReader
		case RoleTag:
			if len(tag) >= 3 {
				roles[tag[1]] = Role(tag[2])
			}
		}
	}
	if len(d) != 1 {
		return nil, ruleErr("projection-owner", "projection needs exactly one d tag equal to owner %s", owner)
	}
	switch {
	case d[0] == owner:
	case reader != "" && d[0] == BuzzD(owner, reader):
		if _, ok := readers[reader]; !ok {
			return nil, ruleErr("projection-reader", "projection addressed to reader %s does not list them among its readers", reader)
		}
	case reader != "" && strings.HasPrefix(d[0], owner+":"):
		return nil, ruleErr("projection-reader", "projection is addressed to reader %q, not to you (%s): it carries their key envelope", strings.TrimPrefix(d[0], owner+":"), reader)
	default:
		return nil, ruleErr("projection-owner", "projection needs exactly one d tag equal to owner %s", owner)
	}
	if _, ok := readers[owner]; !ok {
		return nil, ruleErr("projection-owner", "projection does not list the owner among its readers")
	}
	for pk, r := range roles {
		if _, ok := readers[pk]; ok && (r == RoleOwner || ValidGrantRole(r)) {
			readers[pk] = r
		}
	}
	readers[owner] = RoleOwner
	p, err := DecodeProjection([]byte(evt.Content))
	if err != nil {
		return nil, err
	}
	if p.OwnerPubkey != owner {
		return nil, ruleErr("projection-owner", "projection content names owner %s, want %s", p.OwnerPubkey, owner)
	}
	return &VerifiedProjection{Event: evt, Projection: p, Readers: readers}, nil
}

// RevisionDecision is what a client does with a verified projection.
type RevisionDecision string

const (
	DecisionAccept  RevisionDecision = "accept"
	DecisionIgnore  RevisionDecision = "ignore"
	DecisionRefetch RevisionDecision = "refetch"
)

// DecideRevision applies the spec's revision rules: nothing cached: accept;
// at or below the cached revision: ignore; exactly one above: accept; a gap
// greater than one: full authorized refetch.
func DecideRevision(haveCached bool, cached, incoming int64) RevisionDecision {
	switch {
	case !haveCached:
		return DecisionAccept
	case incoming <= cached:
		return DecisionIgnore
	case incoming == cached+1:
		return DecisionAccept
	default:
		return DecisionRefetch
	}
}

// String names a verified projection for messages.
func (v *VerifiedProjection) String() string {
	return fmt.Sprintf("workspace of %s at revision %d", v.Projection.OwnerPubkey, v.Projection.Revision)
}
