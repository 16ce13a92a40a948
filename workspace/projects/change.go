package projects

import (
	"errors"
	"fmt"
	"sort"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/workspace/strictjson"
)

// ErrChange marks a kind 47010 command whose shape breaks nip-pc.md.
var ErrChange = errors.New("invalid project change")

// Patch is a related-channel change: canonical UUID sets, sorted, disjoint,
// at most 64 each and not both empty.
type Patch struct {
	Add    []string `json:"add"`
	Remove []string `json:"remove"`
}

// changeContentV1 is the version 1 content of kind 47010; every field is required.
type changeContentV1 struct {
	V     int          `json:"v"`
	Patch patchContent `json:"patch"`
}

type patchContent struct {
	RelatedChannels Patch `json:"related_channels"`
}

// NewPatch builds a Patch from canonical UUIDs: duplicates collapse, both sets
// are sorted, and the shape rules of nip-pc.md "Project Change Command" hold.
func NewPatch(add, remove []string) (Patch, error) {
	p := Patch{Add: sortedSet(add), Remove: sortedSet(remove)}
	return p, p.Validate()
}

func sortedSet(in []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// Validate checks the shape of a patch: canonical UUIDs, no duplicates,
// disjoint sets, at most 64 entries each, and not empty.
func (p Patch) Validate() error {
	if len(p.Add) == 0 && len(p.Remove) == 0 {
		return fmt.Errorf("%w: the patch adds and removes nothing", ErrChange)
	}
	if len(p.Add) > MaxRelatedChannels || len(p.Remove) > MaxRelatedChannels {
		return fmt.Errorf("%w: at most %d channels may be added or removed at once", ErrChange, MaxRelatedChannels)
	}
	in := map[string]bool{}
	for _, c := range p.Add {
		if !IsCanonicalUUID(c) {
			return fmt.Errorf("%w: %q is not a canonical lowercase UUID", ErrChange, c)
		}
		if in[c] {
			return fmt.Errorf("%w: %s is listed twice in add", ErrChange, c)
		}
		in[c] = true
	}
	out := map[string]bool{}
	for _, c := range p.Remove {
		if !IsCanonicalUUID(c) {
			return fmt.Errorf("%w: %q is not a canonical lowercase UUID", ErrChange, c)
		}
		if in[c] {
			return fmt.Errorf("%w: %s is both added and removed", ErrChange, c)
		}
		if out[c] {
			return fmt.Errorf("%w: %s is listed twice in remove", ErrChange, c)
		}
		out[c] = true
	}
	return nil
}

// Content is the canonical JSON content of the kind 47010 command.
func (p Patch) Content() (string, error) {
	b, err := strictjson.Canonical(changeContentV1{V: 1, Patch: patchContent{RelatedChannels: Patch{
		Add: sortedSet(p.Add), Remove: sortedSet(p.Remove),
	}}})
	return string(b), err
}

// Apply returns related with the patch applied, sorted.
func (p Patch) Apply(related []string) []string {
	drop := map[string]bool{}
	for _, c := range p.Remove {
		drop[c] = true
	}
	var out []string
	for _, c := range related {
		if !drop[c] {
			out = append(out, c)
		}
	}
	return sortedSet(append(out, p.Add...))
}

// Check refuses a patch the relay would reject against the current state:
// changing a deleted project, adding the home channel or an already-related
// channel, removing an absent one, or ending with more than 64 related
// channels. It returns a *Refusal.
func (p Patch) Check(deleted bool, doc Document) error {
	if deleted {
		return &Refusal{Code: "project-deleted", Msg: "the project is deleted; only its owner can recreate it, with roster project create (a new kind 30621 identity)"}
	}
	for _, c := range p.Add {
		if c == doc.HomeChannel {
			return &Refusal{Code: "home-channel", Msg: fmt.Sprintf("channel %s is the project's home channel; it cannot also be a related channel", c)}
		}
		if doc.Related(c) {
			return &Refusal{Code: "already-related", Msg: fmt.Sprintf("channel %s is already related to the project", c)}
		}
	}
	for _, c := range p.Remove {
		if !doc.Related(c) {
			return &Refusal{Code: "not-related", Msg: fmt.Sprintf("channel %s is not related to the project", c)}
		}
	}
	if n := len(p.Apply(doc.RelatedChannels)); n > MaxRelatedChannels {
		return &Refusal{Code: "too-many-related", Msg: fmt.Sprintf("the project would have %d related channels, more than %d", n, MaxRelatedChannels)}
	}
	return nil
}

// Refusal is a change the rules forbid; Code is a stable machine code.
type Refusal struct {
	Code string
	Msg  string
}

func (r *Refusal) Error() string { return r.Msg }

// BuildChange returns the unsigned kind 47010 command: exactly the `a` and
// `expected-revision` tags and the canonical version 1 content.
func BuildChange(c Coordinate, expected int64, p Patch, now nostr.Timestamp) (*nostr.Event, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if expected < 1 {
		return nil, fmt.Errorf("%w: expected revision %d is below 1", ErrChange, expected)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	content, err := p.Content()
	if err != nil {
		return nil, err
	}
	return &nostr.Event{
		Kind:      KindChange,
		CreatedAt: now,
		Tags: nostr.Tags{
			{"a", c.String()},
			{"expected-revision", FormatRevision(expected)},
		},
		Content: content,
	}, nil
}

// DecodeChange reads a kind 47010 command strictly (the relay side of the
// shape rules): exactly the two tags, a canonical expected revision, version
// 1 content with required add and remove, and a valid patch.
func DecodeChange(evt *nostr.Event) (Coordinate, int64, Patch, error) {
	if evt == nil || evt.Kind != KindChange {
		return Coordinate{}, 0, Patch{}, fmt.Errorf("%w: not a kind %d event", ErrChange, KindChange)
	}
	// Exactly those two tags, in either order, each [name, value].
	var aTag, revTag nostr.Tag
	for _, t := range evt.Tags {
		switch {
		case len(t) == 2 && t[0] == "a" && aTag == nil:
			aTag = t
		case len(t) == 2 && t[0] == "expected-revision" && revTag == nil:
			revTag = t
		default:
			aTag = nil // anything else, or a second copy, spoils the command
		}
	}
	if len(evt.Tags) != 2 || aTag == nil || revTag == nil {
		return Coordinate{}, 0, Patch{}, fmt.Errorf("%w: the command must carry exactly an a tag and an expected-revision tag", ErrChange)
	}
	c, err := ParseCoordinate(aTag[1])
	if err != nil {
		return Coordinate{}, 0, Patch{}, err
	}
	expected, err := ParseRevision(revTag[1])
	if err != nil {
		return Coordinate{}, 0, Patch{}, fmt.Errorf("%w: expected-revision: %v", ErrChange, err)
	}
	var body changeContentV1
	if err := strictjson.DecodeStrict([]byte(evt.Content), &body); err != nil {
		return Coordinate{}, 0, Patch{}, fmt.Errorf("%w: content: %v", ErrChange, err)
	}
	if body.V != 1 {
		return Coordinate{}, 0, Patch{}, fmt.Errorf("%w: content version %d is not 1", ErrChange, body.V)
	}
	p := body.Patch.RelatedChannels
	if err := p.Validate(); err != nil {
		return Coordinate{}, 0, Patch{}, err
	}
	return c, expected, Patch{Add: sortedSet(p.Add), Remove: sortedSet(p.Remove)}, nil
}
