package swrelay

import (
	"fmt"
	"maps"
	"sort"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/workspace/sections"
	"github.com/roster-cli/roster/workspace/strictjson"
)

// workspace is the normalized state of one (community, owner) workspace.
type workspace struct {
	owner          string
	revision       int64
	layoutRevision int64
	keyEpoch       int64
	migration      *sections.Migration
	sections       []sectionRow // in rank order
	assignments    map[string]assignmentRow
	grants         map[string]grantRow
	// envelopes[epoch][reader]: kept per epoch so a projection still stored
	// at an older epoch is never paired with a newer epoch's envelope.
	envelopes map[int64]map[string]string
	// actions are the durable action rows: action_id -> command hash, the
	// revision it produced and the complete signed event (rebuild source).
	actions map[string]actionRow
	// projected is the created_at of the last projection: each new one is
	// strictly later so addressable replacement never keeps an older one.
	projected nostr.Timestamp
}

type sectionRow struct {
	id       string
	encLabel string
	encIcon  *string
}

type assignmentRow struct {
	section  string
	revision int64
}

type grantRow struct {
	role   sections.Role
	active bool
}

type actionRow struct {
	hash     string
	revision int64
	eventID  string
	event    []byte
}

func newWorkspace(owner string) *workspace {
	return &workspace{owner: owner, assignments: map[string]assignmentRow{}, grants: map[string]grantRow{},
		envelopes: map[int64]map[string]string{}, actions: map[string]actionRow{}}
}

// clone copies everything a command may change, so a failed command leaves
// the committed state untouched.
func (w *workspace) clone() *workspace {
	c := *w
	c.sections = append([]sectionRow(nil), w.sections...)
	c.assignments = maps.Clone(w.assignments)
	c.grants = maps.Clone(w.grants)
	c.envelopes = make(map[int64]map[string]string, len(w.envelopes))
	for e, m := range w.envelopes {
		c.envelopes[e] = maps.Clone(m)
	}
	c.actions = maps.Clone(w.actions)
	return &c
}

// role is pubkey's standing: owner, an active grant's role, or "".
func (w *workspace) role(pubkey string) sections.Role {
	if pubkey == w.owner {
		return sections.RoleOwner
	}
	if g, ok := w.grants[pubkey]; ok && g.active {
		return g.role
	}
	return ""
}

// readers are the owner and every active grantee, sorted.
func (w *workspace) readers() []string {
	out := []string{w.owner}
	for pk, g := range w.grants {
		if g.active {
			out = append(out, pk)
		}
	}
	sort.Strings(out[1:])
	return out
}

func (w *workspace) activeGrants() int {
	n := 0
	for _, g := range w.grants {
		if g.active {
			n++
		}
	}
	return n
}

func (w *workspace) sectionIndex(id string) int {
	for i, s := range w.sections {
		if s.id == id {
			return i
		}
	}
	return -1
}

// projectionContent is the projection as reader sees it.
func (w *workspace) projectionContent(reader string) (*sections.Projection, error) {
	env, ok := w.envelopes[w.keyEpoch][reader]
	if !ok {
		return nil, fmt.Errorf("no envelope for %s at epoch %d", reader, w.keyEpoch)
	}
	p := &sections.Projection{Version: sections.Version, OwnerPubkey: w.owner, Revision: w.revision,
		LayoutRevision: w.layoutRevision, KeyEpoch: w.keyEpoch, Migration: w.migration, ReaderKeyEnvelope: env,
		Sections: []sections.ProjectedSection{}, Assignments: []sections.ProjectedAssignment{}}
	for i, s := range w.sections {
		p.Sections = append(p.Sections, sections.ProjectedSection{ID: s.id, Rank: i, EncryptedLabel: s.encLabel, EncryptedIcon: s.encIcon})
	}
	channels := make([]string, 0, len(w.assignments))
	for ch := range w.assignments {
		channels = append(channels, ch)
	}
	sort.Strings(channels)
	for _, ch := range channels {
		a := w.assignments[ch]
		p.Assignments = append(p.Assignments, sections.ProjectedAssignment{ChannelID: ch, SectionID: a.section, Revision: a.revision})
	}
	return p, p.Validate()
}

// projection signs the stored projection: the owner's view, with one p tag
// and one role tag per authorized reader.
func (w *workspace) projection(env devrelay.Env) (*nostr.Event, error) {
	p, err := w.projectionContent(w.owner)
	if err != nil {
		return nil, err
	}
	content, err := strictjson.Canonical(p)
	if err != nil {
		return nil, err
	}
	at := env.Now()
	if at <= w.projected {
		at = w.projected + 1
	}
	w.projected = at
	tags := nostr.Tags{{"d", w.owner}}
	for _, pk := range w.readers() {
		tags = append(tags, nostr.Tag{"p", pk})
	}
	for _, pk := range w.readers() {
		tags = append(tags, nostr.Tag{sections.RoleTag, pk, string(w.role(pk))})
	}
	evt := &nostr.Event{Kind: sections.KindProjection, CreatedAt: at, Tags: tags, Content: string(content)}
	if err := env.Sign(evt); err != nil {
		return nil, err
	}
	return evt, nil
}

// forReader re-signs the stored projection with reader's envelope for the
// stored event's own epoch.
func (w *workspace) forReader(env devrelay.Env, stored *nostr.Event, reader string) (*nostr.Event, error) {
	var p sections.Projection
	if err := strictjson.DecodeStrict([]byte(stored.Content), &p); err != nil {
		return nil, err
	}
	envelope, ok := w.envelopes[p.KeyEpoch][reader]
	if !ok {
		return nil, fmt.Errorf("no envelope for %s at epoch %d", reader, p.KeyEpoch)
	}
	p.ReaderKeyEnvelope = envelope
	content, err := strictjson.Canonical(&p)
	if err != nil {
		return nil, err
	}
	tags := make(nostr.Tags, len(stored.Tags))
	for i, t := range stored.Tags {
		tags[i] = append(nostr.Tag(nil), t...)
	}
	out := &nostr.Event{Kind: stored.Kind, CreatedAt: stored.CreatedAt, Tags: tags, Content: string(content)}
	if err := env.Sign(out); err != nil {
		return nil, err
	}
	return out, nil
}

// priorAction consults the durable action rows: the same action id with the
// same command hash is an exact retry; with another hash it is rejected.
func (w *workspace) priorAction(actionID, hash string) (exactRetry bool, err error) {
	row, ok := w.actions[actionID]
	if !ok {
		return false, nil
	}
	if row.hash == hash {
		return true, nil
	}
	return false, fmt.Errorf("action-reused: action_id %s was already used for a different command (hash %s, this one %s)", actionID, row.hash, hash)
}
