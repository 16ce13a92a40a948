package groups

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip19"
)

// Ref is a group as a person names it: its id and, when the reference
// carries them, the relay hosting it, the relay's `self` key (an naddr's
// author) and an invite code.
type Ref struct {
	ID string `json:"id"`
	// Relay is the hosting relay's URL ("" for a bare id).
	Relay string `json:"relay,omitempty"`
	// Self is the naddr's pubkey: the relay key that signs the group's
	// 39000 (nip-29.md "Group referencing").
	Self string `json:"self,omitempty"`
	// Invite is the code of an `naddr1...?invite=<code>` reference.
	Invite string `json:"invite,omitempty"`
}

// ErrRef marks a group reference that does not parse.
var ErrRef = errors.New("not a group reference")

// ParseRef reads the three ways a group is named: an `naddr1...` of its kind
// 39000 (with an optional `?invite=<code>` suffix, nip-29.md "Group
// referencing"), `<relay>'<group-id>` (the relay a host such as
// groups.example, taken as wss:// (ws:// for a loopback host), or a full
// ws:// or wss:// URL), or the
// bare group id.
func ParseRef(s string) (Ref, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Ref{}, fmt.Errorf("%w: the group is empty", ErrRef)
	}
	if strings.HasPrefix(strings.ToLower(s), "naddr1") {
		return parseNaddr(s)
	}
	if host, id, ok := strings.Cut(s, "'"); ok {
		return parseHostID(s, host, id)
	}
	if strings.ContainsAny(s, " \t\r\n") {
		return Ref{}, fmt.Errorf("%w: %q has white space", ErrRef, s)
	}
	return Ref{ID: s}, nil
}

func parseNaddr(s string) (Ref, error) {
	code, query, hasQuery := strings.Cut(s, "?")
	prefix, v, err := nip19.Decode(code)
	if err != nil || prefix != "naddr" {
		return Ref{}, fmt.Errorf("%w: %q is not a valid naddr", ErrRef, code)
	}
	ep := v.(nostr.EntityPointer)
	if ep.Kind != KindMetadata {
		return Ref{}, fmt.Errorf("%w: the naddr points at a kind %d event, not a group's kind %d metadata", ErrRef, ep.Kind, KindMetadata)
	}
	if ep.Identifier == "" {
		return Ref{}, fmt.Errorf("%w: the naddr has no group id (d)", ErrRef)
	}
	r := Ref{ID: ep.Identifier, Self: ep.PublicKey}
	if len(ep.Relays) > 0 {
		r.Relay = ep.Relays[0]
	}
	if hasQuery {
		q, err := url.ParseQuery(query)
		if err != nil {
			return Ref{}, fmt.Errorf("%w: the part after ? does not parse: %v", ErrRef, err)
		}
		r.Invite = q.Get("invite")
		if q.Has("invite") && r.Invite == "" {
			return Ref{}, fmt.Errorf("%w: the invite code after ?invite= is empty", ErrRef)
		}
	}
	return r, nil
}

func parseHostID(s, host, id string) (Ref, error) {
	if id == "" || strings.Contains(id, "'") || strings.ContainsAny(id, " \t\r\n") {
		return Ref{}, fmt.Errorf("%w: %q needs one group id after the relay and a single '", ErrRef, s)
	}
	relay := host
	if !strings.Contains(host, "://") {
		// As relay hints and --relay shorthands are read: wss://, or ws://
		// for a loopback host.
		relay = nostr.NormalizeURL(host)
	}
	u, err := url.Parse(relay)
	if err != nil || (u.Scheme != "ws" && u.Scheme != "wss") || u.Host == "" {
		return Ref{}, fmt.Errorf("%w: %q before ' is not a relay host or ws/wss URL", ErrRef, host)
	}
	return Ref{ID: id, Relay: relay}, nil
}

// Naddr encodes the group's kind 39000 address with the relay hint, and the
// invite suffix when code is given.
func Naddr(id, relay, self, code string) (string, error) {
	var relays []string
	if relay != "" {
		relays = []string{relay}
	}
	n, err := nip19.EncodeEntity(self, KindMetadata, id, relays)
	if err != nil {
		return "", err
	}
	if code != "" {
		n += "?invite=" + url.QueryEscape(code)
	}
	return n, nil
}

// String is the reference in its `<relay>'<id>` form when it names a relay.
func (r Ref) String() string {
	if r.Relay == "" {
		return r.ID
	}
	return r.Relay + "'" + r.ID
}
