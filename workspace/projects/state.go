package projects

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/workspace/strictjson"
)

// Errors of Project State verification; test with errors.Is.
var (
	// ErrState marks a kind 30623 event that fails a client rule of nip-pc.md.
	ErrState = errors.New("invalid project state")
	// ErrUnknownVersion marks a projection whose content version roster does
	// not understand: it is ignored, never guessed at ("Schema Evolution").
	ErrUnknownVersion = errors.New("unknown project state version")
	// ErrAmbiguous marks a relay whose projections for one address name no
	// one state: two with the newest created_at, or an older one with a
	// greater revision than the newest.
	ErrAmbiguous = errors.New("ambiguous project state")
)

// State is a verified Project State (kind 30623) for one coordinate.
type State struct {
	Coordinate Coordinate
	// Revision is the state revision from the `rev` tag. The projection event
	// id is never a revision token: repair or key rotation changes it alone.
	Revision      int64
	Deleted       bool
	Document      Document // zero when Deleted
	ProjectTags   [][]string
	IdentityEvent string // current owner-signed kind 30621
	ChangeEvent   string // command, identity or deletion that produced Revision
	EventID       string
	CreatedAt     nostr.Timestamp
	Signer        string // the relay identity that signed it
}

// stateContentV1 is the version 1 content. Every field is required; strict
// decoding rejects unknown fields, duplicate keys and non-integers.
type stateContentV1 struct {
	V           int        `json:"v"`
	Deleted     bool       `json:"deleted"`
	ProjectTags [][]string `json:"project_tags"`
}

// DecodeStateContent strictly decodes Project State content. A content whose
// `v` is an integer other than 1 returns ErrUnknownVersion; a tombstone must
// be exactly deleted with no project_tags; a live state must carry a readable
// tag set.
func DecodeStateContent(content string) (deleted bool, doc Document, tags [][]string, err error) {
	var top map[string]json.RawMessage
	if err := strictjson.DecodeStrict([]byte(content), &top); err != nil {
		return false, Document{}, nil, fmt.Errorf("%w: content: %v", ErrState, err)
	}
	raw, ok := top["v"]
	if !ok {
		return false, Document{}, nil, fmt.Errorf("%w: content has no version field v", ErrState)
	}
	var v int64
	if err := strictjson.DecodeStrict(raw, &v); err != nil {
		return false, Document{}, nil, fmt.Errorf("%w: content version: %v", ErrState, err)
	}
	if v != 1 {
		return false, Document{}, nil, fmt.Errorf("%w %d", ErrUnknownVersion, v)
	}
	var c stateContentV1
	if err := strictjson.DecodeStrict([]byte(content), &c); err != nil {
		return false, Document{}, nil, fmt.Errorf("%w: content: %v", ErrState, err)
	}
	if c.Deleted {
		if len(c.ProjectTags) != 0 {
			return false, Document{}, nil, fmt.Errorf("%w: a deleted project must have empty project_tags", ErrState)
		}
		return true, Document{}, [][]string{}, nil
	}
	doc, err = ParseDocument(c.ProjectTags)
	if err != nil {
		return false, Document{}, nil, fmt.Errorf("%w: project_tags: %v", ErrState, err)
	}
	return false, doc, c.ProjectTags, nil
}

// VerifyState applies the client rules of nip-pc.md to one kind 30623 event
// read for the requested coordinate: signed by relaySelf (the NIP-11 `self`
// of the trusted relay connection), kind 30623, `d` = the coordinate's
// address, exactly one `a` equal to the requested coordinate, one canonical
// `rev`, one `identity` and one `change` e reference, content version 1.
func VerifyState(evt *nostr.Event, want Coordinate, relaySelf string) (State, error) {
	if evt == nil || evt.Kind != KindState {
		return State{}, fmt.Errorf("%w: not a kind %d event", ErrState, KindState)
	}
	if !IsLowerHex64(relaySelf) {
		return State{}, fmt.Errorf("%w: the relay advertises no NIP-11 self pubkey, so its projection cannot be trusted", ErrState)
	}
	if evt.PubKey != relaySelf {
		return State{}, fmt.Errorf("%w: signed by %s, not the relay identity %s", ErrState, evt.PubKey, relaySelf)
	}
	if err := verifyEvent(evt); err != nil {
		return State{}, fmt.Errorf("%w: %v", ErrState, err)
	}
	st := State{Coordinate: want, EventID: evt.ID, CreatedAt: evt.CreatedAt, Signer: evt.PubKey}
	var ds, as, revs []string
	for _, t := range evt.Tags {
		if len(t) == 0 {
			continue
		}
		switch t[0] {
		case "d":
			ds = append(ds, tagValue(t))
		case "a":
			as = append(as, tagValue(t))
		case "rev":
			revs = append(revs, tagValue(t))
		case "e":
			if len(t) < 4 {
				continue
			}
			switch t[3] {
			case "identity":
				if st.IdentityEvent != "" {
					return State{}, fmt.Errorf("%w: more than one identity reference", ErrState)
				}
				st.IdentityEvent = t[1]
			case "change":
				if st.ChangeEvent != "" {
					return State{}, fmt.Errorf("%w: more than one change reference", ErrState)
				}
				st.ChangeEvent = t[1]
			}
		}
	}
	if len(ds) != 1 || ds[0] != want.Address() {
		return State{}, fmt.Errorf("%w: d tag is not the address %s of %s", ErrState, want.Address(), want)
	}
	if len(as) != 1 {
		return State{}, fmt.Errorf("%w: %d a tags, want exactly one", ErrState, len(as))
	}
	if as[0] != want.String() {
		return State{}, fmt.Errorf("%w: a tag %q is not the requested coordinate %q", ErrState, as[0], want.String())
	}
	if len(revs) != 1 {
		return State{}, fmt.Errorf("%w: %d rev tags, want exactly one", ErrState, len(revs))
	}
	rev, err := ParseRevision(revs[0])
	if err != nil {
		return State{}, fmt.Errorf("%w: %v", ErrState, err)
	}
	st.Revision = rev
	if !IsLowerHex64(st.IdentityEvent) || !IsLowerHex64(st.ChangeEvent) {
		return State{}, fmt.Errorf("%w: needs one identity and one change e reference with 64-hex event ids", ErrState)
	}
	st.Deleted, st.Document, st.ProjectTags, err = DecodeStateContent(evt.Content)
	if err != nil {
		return State{}, err
	}
	if !st.Deleted && st.Document.D != want.D {
		return State{}, fmt.Errorf("%w: project_tags d %q is not the coordinate's %q", ErrState, st.Document.D, want.D)
	}
	return st, nil
}

func tagValue(t nostr.Tag) string {
	if len(t) < 2 {
		return ""
	}
	return t[1]
}

// FromRelay picks the projection a relay returned for want: the newest by
// created_at, verified. Events for other kinds or addresses are skipped;
// two different newest candidates with one created_at, or an older one
// with a greater revision, are ErrAmbiguous. found is false when the relay
// had none.
func FromRelay(events []*nostr.Event, want Coordinate, relaySelf string) (st State, found bool, err error) {
	// Only the relay's own signature makes a projection: an event for the
	// same address signed by any other key is a forgery to ignore, never a
	// second candidate that makes the answer ambiguous.
	var cands, foreign []*nostr.Event
	addr := want.Address()
	for _, e := range events {
		if e == nil || e.Kind != KindState || e.Tags.GetD() != addr {
			continue
		}
		if e.PubKey == relaySelf {
			cands = append(cands, e)
		} else {
			foreign = append(foreign, e)
		}
	}
	if len(cands) == 0 && len(foreign) > 0 {
		cands = foreign[:1] // nothing the relay signed: say why the forgery is not one
	}
	if len(cands) == 0 {
		return State{}, false, nil
	}
	// Every newly signed projection for an address has a greater created_at
	// than the last (nip-pc.md), so the newest is the relay's state: an
	// older one beside it was superseded, typically while the REQ was open
	// (a concurrent change committed and its projection arrived live). Two
	// newest with one created_at break that rule, and an older one with a
	// greater revision says the relay's history went backwards: neither
	// answer names one state, and none is used.
	newest := cands[0]
	for _, e := range cands[1:] {
		if e.CreatedAt > newest.CreatedAt {
			newest = e
		}
	}
	st, err = VerifyState(newest, want, relaySelf)
	if err != nil {
		return State{}, false, err
	}
	for _, e := range cands {
		if e == newest || e.ID == newest.ID {
			continue
		}
		if e.CreatedAt == newest.CreatedAt {
			return State{}, false, fmt.Errorf("%w: the relay returned two projections for %s, both created at %d", ErrAmbiguous, want, newest.CreatedAt)
		}
		if older, err := VerifyState(e, want, relaySelf); err == nil && older.Revision > st.Revision {
			return State{}, false, fmt.Errorf("%w: the relay returned revision %d for %s, older than its revision %d", ErrAmbiguous, st.Revision, want, older.Revision)
		}
	}
	return st, true, nil
}

// Newest returns the projection with the greatest created_at; on a tie the
// lowest event id wins (NIP-01). ok is false for an empty list.
func Newest(states []State) (State, bool) {
	if len(states) == 0 {
		return State{}, false
	}
	best := states[0]
	for _, s := range states[1:] {
		if s.CreatedAt > best.CreatedAt || s.CreatedAt == best.CreatedAt && s.EventID < best.EventID {
			best = s
		}
	}
	return best, true
}
