package gitstate

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/internal/relayurl"
)

// Ref is a parsed --repo argument or nostr:// remote URL.
type Ref struct {
	// Coordinate is the kind 30617 coordinate. Its Pubkey is empty while NIP05
	// is unresolved.
	Coordinate graph.Coordinate
	// Relays are relay hints in the order given, normalized (wss:// added
	// when the scheme was missing), without duplicates.
	Relays []string
	// NIP05 is the unresolved NIP-05 name ("bob@example.com") when the URL
	// named the maintainer that way; resolve it with ResolveNIP05.
	NIP05 string
	// Remote is set when the argument was a remote name, to be resolved
	// against a checkout; Coordinate is then empty.
	Remote string
	// Protocol and User come from a nostr:// URL's optional leading
	// protocol segment ("ssh/", "git@ssh/") or ?protocol=; roster only
	// carries them through for ngit compatibility.
	Protocol, User string
}

// Resolved reports whether the coordinate is known (no NIP-05 or remote name
// left to resolve).
func (r Ref) Resolved() bool { return r.Coordinate.Valid() }

// ErrNotNostrURL is returned by ParseNostrURL for strings that are not
// nostr:// URLs at all (as opposed to malformed ones).
var ErrNotNostrURL = errors.New("not a nostr:// URL")

// ParseRepoArg parses a --repo value: an naddr, a nostr:// URL, or else a
// remote name to be resolved against the checkout.
func ParseRepoArg(s string) (Ref, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Ref{}, fmt.Errorf("--repo is empty: pass a remote name, an naddr or a nostr:// URL")
	}
	lower := strings.ToLower(s)
	switch {
	case strings.HasPrefix(lower, "naddr1") || strings.HasPrefix(lower, "nostr:naddr1"):
		c, relays, err := DecodeNaddr(s)
		if err != nil {
			return Ref{}, err
		}
		return Ref{Coordinate: c, Relays: relays}, nil
	case strings.HasPrefix(lower, "nostr://"):
		return ParseNostrURL(s)
	}
	if _, err := DecodePubkey(s); err == nil {
		return Ref{}, fmt.Errorf("--repo %s names a person, not a repository: use nostr://%s/<identifier> or an naddr", short(s), short(s))
	}
	if !validRemoteName(s) {
		return Ref{}, fmt.Errorf("--repo %q is not a remote name, an naddr or a nostr:// URL", short(s))
	}
	return Ref{Remote: s}, nil
}

// validRemoteName accepts what git accepts as a remote name, roughly: no
// whitespace, no URL punctuation, no leading dash.
func validRemoteName(s string) bool {
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, ".") || strings.HasSuffix(s, ".") || strings.Contains(s, "..") {
		return false
	}
	for _, r := range s {
		if r <= ' ' || r == 0x7f || strings.ContainsRune(":?*[\\~^", r) {
			return false
		}
	}
	return true
}

// protocols ngit accepts as the optional leading segment of a nostr:// URL.
var protocols = map[string]bool{"ssh": true, "https": true, "http": true, "git": true, "ftp": true, "filesystem": true}

// ParseNostrURL parses the nostr:// forms ngit writes:
//
//	nostr://<naddr>
//	nostr://[<proto>/|<user>@<proto>/]<npub|hex|nip05>/[<relay-hint>/...]<identifier>[?relay=...&protocol=...]
//
// Path segments are percent-decoded after splitting, so an encoded "/" stays
// inside its relay hint; relay hints without a scheme mean wss://.
func ParseNostrURL(raw string) (Ref, error) {
	s := strings.TrimSpace(raw)
	if len(s) < len("nostr://") || !strings.EqualFold(s[:len("nostr://")], "nostr://") {
		return Ref{}, ErrNotNostrURL
	}
	rest := s[len("nostr://"):]
	query := ""
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		rest, query = rest[:i], rest[i+1:]
	}
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest = rest[:i]
	}
	var segs []string
	for _, p := range strings.Split(rest, "/") {
		if p == "" {
			continue // tolerate doubled and trailing slashes
		}
		d, err := url.PathUnescape(p)
		if err != nil {
			return Ref{}, fmt.Errorf("nostr URL %s: bad percent-encoding in %q", short(raw), short(p))
		}
		segs = append(segs, d)
	}
	var ref Ref
	if len(segs) > 0 {
		proto, user := segs[0], ""
		if i := strings.LastIndexByte(proto, '@'); i >= 0 {
			user, proto = proto[:i], proto[i+1:]
		}
		if protocols[strings.ToLower(proto)] {
			ref.Protocol, ref.User = strings.ToLower(proto), user
			segs = segs[1:]
		}
	}
	if len(segs) == 0 {
		return Ref{}, fmt.Errorf("nostr URL %s names no repository: want nostr://<npub>/<identifier> or nostr://<naddr>", short(raw))
	}
	if strings.HasPrefix(strings.ToLower(segs[0]), "naddr1") {
		if len(segs) > 1 {
			return Ref{}, fmt.Errorf("nostr URL %s: nothing may follow the naddr", short(raw))
		}
		c, relays, err := DecodeNaddr(segs[0])
		if err != nil {
			return Ref{}, fmt.Errorf("nostr URL %s: %v", short(raw), err)
		}
		ref.Coordinate, ref.Relays = c, relays
	} else {
		if len(segs) < 2 {
			return Ref{}, fmt.Errorf("nostr URL %s has no identifier: want nostr://<npub>/<identifier>", short(raw))
		}
		owner, ident := segs[0], segs[len(segs)-1]
		ref.Coordinate = graph.Coordinate{Kind: graph.KindAnnouncement, Identifier: ident}
		if pk, err := DecodePubkey(owner); err == nil {
			ref.Coordinate.Pubkey = pk
		} else if name, ok := nip05Name(owner); ok {
			ref.NIP05 = name
		} else {
			return Ref{}, fmt.Errorf("nostr URL %s: %q is not an npub, a 64-hex pubkey or a NIP-05 name", short(raw), short(owner))
		}
		for _, h := range segs[1 : len(segs)-1] {
			u, ok := normalizeRelay(h)
			if !ok {
				return Ref{}, fmt.Errorf("nostr URL %s: relay hint %q is not a relay URL", short(raw), short(h))
			}
			ref.Relays = appendUnique(ref.Relays, u)
		}
	}
	if query != "" {
		q, err := url.ParseQuery(query)
		if err != nil {
			return Ref{}, fmt.Errorf("nostr URL %s: bad query: %v", short(raw), err)
		}
		for _, h := range q["relay"] {
			u, ok := normalizeRelay(h)
			if !ok {
				return Ref{}, fmt.Errorf("nostr URL %s: relay %q is not a relay URL", short(raw), short(h))
			}
			ref.Relays = appendUnique(ref.Relays, u)
		}
		if p := q.Get("protocol"); p != "" {
			ref.Protocol = strings.ToLower(p)
		}
	}
	if ref.Coordinate.Identifier == "" {
		return Ref{}, fmt.Errorf("nostr URL %s has an empty identifier", short(raw))
	}
	return ref, nil
}

// nip05Name recognises "name@domain" or a bare "domain" (meaning "_@domain").
func nip05Name(s string) (string, bool) {
	name, domain := "_", s
	if i := strings.LastIndexByte(s, '@'); i >= 0 {
		name, domain = s[:i], s[i+1:]
	}
	if name == "" || !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") {
		return "", false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-+", r)) {
			return "", false
		}
	}
	for _, r := range domain {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(".-:", r)) {
			return "", false
		}
	}
	return strings.ToLower(name) + "@" + strings.ToLower(domain), true
}

// normalizeRelay turns a relay hint into a ws(s) URL: a missing scheme means
// wss://, as ngit strips it when writing nostr:// URLs. Everything else is
// relayurl's one reading of a relay URL (a misspelt scheme such as
// "ws//host" becomes the host "ws" with a "//" path, which it refuses).
func normalizeRelay(h string) (string, bool) {
	h = strings.TrimSpace(h)
	if h == "" {
		return "", false
	}
	if !strings.Contains(h, "://") {
		h = "wss://" + h
	}
	u, err := relayurl.Parse(h, relayurl.Explicit)
	return u, err == nil
}

// NostrURL renders the canonical nostr://<npub>/<relay-hint...>/<identifier>
// form ngit writes: wss:// stripped from hints, everything percent-encoded.
func NostrURL(c graph.Coordinate, relays []string) string {
	npub := graph.Npub(c.Pubkey)
	var b strings.Builder
	b.WriteString("nostr://")
	b.WriteString(npub)
	for _, r := range relays {
		b.WriteByte('/')
		b.WriteString(url.PathEscape(strings.TrimPrefix(r, "wss://")))
	}
	b.WriteByte('/')
	b.WriteString(url.PathEscape(c.Identifier))
	return b.String()
}
