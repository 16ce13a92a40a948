package projects

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// MaxRelatedChannels bounds a Project's related channels (nip-pc.md "Project
// Change Command": "producing more than 64 related channels is invalid").
const MaxRelatedChannels = 64

// Tag names of the NIP-MP Project fields roster understands.
const (
	TagD              = "d"
	TagName           = "name"
	TagDescription    = "description"
	TagMember         = "a"
	TagHomeChannel    = "buzz-channel"
	TagRelatedChannel = "buzz-related-channel"
	TagVisibility     = "buzz-visibility"
	tagAuth           = "auth" // transport-only, never Project metadata
)

// ErrDocument marks a Project tag set that cannot be read.
var ErrDocument = errors.New("invalid project tags")

// Member is one repository of the Project: an `a` tag naming 30617:<owner>:<d>.
type Member struct {
	Address string `json:"address"` // 30617:<owner>:<d>
	Owner   string `json:"owner"`
	D       string `json:"d"`
	Relay   string `json:"relay,omitempty"` // optional relay hint
}

// Document is a Project's NIP-MP tag set, read into fields. Unknown tags are
// kept verbatim and in their original relative order.
type Document struct {
	D               string     `json:"d"`
	Name            string     `json:"name,omitempty"`
	Description     string     `json:"description,omitempty"`
	Members         []Member   `json:"members"`
	HomeChannel     string     `json:"home_channel,omitempty"`
	RelatedChannels []string   `json:"related_channels"`
	Visibility      string     `json:"visibility,omitempty"`
	Unknown         [][]string `json:"unknown_tags"`
}

// ParseDocument reads a Project tag set (a kind 30621's tags, or a Project
// State's project_tags). It requires exactly one non-empty `d`, at most one
// of each single-valued field, canonical channel UUIDs, and at most 64 related
// channels. `a` tags that are not repository addresses and every tag roster
// does not know are kept in Unknown; transport-only `auth` tags are dropped.
func ParseDocument(tags [][]string) (Document, error) {
	doc := Document{Members: []Member{}, RelatedChannels: []string{}, Unknown: [][]string{}}
	seen := map[string]bool{}
	related := map[string]bool{}
	members := map[string]bool{}
	single := func(name string, t []string) (string, error) {
		if seen[name] {
			return "", fmt.Errorf("%w: more than one %q tag", ErrDocument, name)
		}
		seen[name] = true
		if len(t) < 2 {
			return "", fmt.Errorf("%w: %q tag has no value", ErrDocument, name)
		}
		return t[1], nil
	}
	for _, t := range tags {
		if len(t) == 0 {
			return Document{}, fmt.Errorf("%w: empty tag", ErrDocument)
		}
		var err error
		switch t[0] {
		case TagD:
			doc.D, err = single(TagD, t)
			if err == nil && (doc.D == "" || len(doc.D) > MaxDBytes) {
				err = fmt.Errorf("%w: d must be 1..%d bytes", ErrDocument, MaxDBytes)
			}
		case TagName:
			doc.Name, err = single(TagName, t)
		case TagDescription:
			doc.Description, err = single(TagDescription, t)
		case TagVisibility:
			doc.Visibility, err = single(TagVisibility, t)
		case TagHomeChannel:
			doc.HomeChannel, err = single(TagHomeChannel, t)
			if err == nil && !IsCanonicalUUID(doc.HomeChannel) {
				err = fmt.Errorf("%w: home channel %q is not a canonical UUID", ErrDocument, doc.HomeChannel)
			}
		case TagRelatedChannel:
			if len(t) < 2 || !IsCanonicalUUID(t[1]) {
				return Document{}, fmt.Errorf("%w: related channel %q is not a canonical UUID", ErrDocument, strings.Join(t[1:], ","))
			}
			if !related[t[1]] {
				related[t[1]] = true
				doc.RelatedChannels = append(doc.RelatedChannels, t[1])
			}
		case TagMember:
			m, ok := parseMember(t)
			if !ok {
				doc.Unknown = append(doc.Unknown, copyTag(t))
				continue
			}
			if !members[m.Address] {
				members[m.Address] = true
				doc.Members = append(doc.Members, m)
			}
		case tagAuth:
		default:
			doc.Unknown = append(doc.Unknown, copyTag(t))
		}
		if err != nil {
			return Document{}, err
		}
	}
	if doc.D == "" {
		return Document{}, fmt.Errorf("%w: no d tag", ErrDocument)
	}
	if len(doc.RelatedChannels) > MaxRelatedChannels {
		return Document{}, fmt.Errorf("%w: %d related channels, more than %d", ErrDocument, len(doc.RelatedChannels), MaxRelatedChannels)
	}
	sort.Strings(doc.RelatedChannels)
	sort.Slice(doc.Members, func(i, j int) bool { return doc.Members[i].Address < doc.Members[j].Address })
	return doc, nil
}

// parseMember reads ["a", "30617:<owner>:<d>", <relay hint>?].
func parseMember(t []string) (Member, bool) {
	if len(t) < 2 {
		return Member{}, false
	}
	kind, rest, ok := strings.Cut(t[1], ":")
	if !ok || kind != "30617" {
		return Member{}, false
	}
	owner, d, ok := strings.Cut(rest, ":")
	if !ok || !IsLowerHex64(owner) || d == "" {
		return Member{}, false
	}
	m := Member{Address: t[1], Owner: owner, D: d}
	if len(t) > 2 {
		m.Relay = t[2]
	}
	return m, true
}

// Related reports whether channel is one of the Project's related channels.
func (d Document) Related(channel string) bool {
	for _, c := range d.RelatedChannels {
		if c == channel {
			return true
		}
	}
	return false
}

// Tags renders the effective tag set in the deterministic order the reference
// relay publishes: d, name, description, visibility, home channel, related
// channels (lexical), members (lexical by address), then unknown tags verbatim
// in their original relative order.
func (d Document) Tags() [][]string {
	out := [][]string{{TagD, d.D}}
	if d.Name != "" {
		out = append(out, []string{TagName, d.Name})
	}
	if d.Description != "" {
		out = append(out, []string{TagDescription, d.Description})
	}
	if d.Visibility != "" {
		out = append(out, []string{TagVisibility, d.Visibility})
	}
	if d.HomeChannel != "" {
		out = append(out, []string{TagHomeChannel, d.HomeChannel})
	}
	rel := append([]string(nil), d.RelatedChannels...)
	sort.Strings(rel)
	for _, c := range rel {
		out = append(out, []string{TagRelatedChannel, c})
	}
	mem := append([]Member(nil), d.Members...)
	sort.Slice(mem, func(i, j int) bool { return mem[i].Address < mem[j].Address })
	for _, m := range mem {
		t := []string{TagMember, m.Address}
		if m.Relay != "" {
			t = append(t, m.Relay)
		}
		out = append(out, t)
	}
	for _, t := range d.Unknown {
		out = append(out, copyTag(t))
	}
	return out
}

// copyTag copies one tag (go-nostr's Tags.Clone returns nil).
func copyTag(t []string) []string { return append([]string(nil), t...) }
