package gitstate

import (
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/roster-cli/roster/graph"
)

// RemoteURLs are one remote's configured URLs as written in the local
// config: `url` values (fetch, and push when no pushurl is set) and
// `pushurl` values. go-git's RemoteConfig.URLs mixes the two.
type RemoteURLs struct {
	URLs     []string
	PushURLs []string
}

// Remotes returns every remote's URLs by remote name.
func (c *Checkout) Remotes() (map[string]RemoteURLs, error) {
	rc, err := c.repoConfig()
	if err != nil {
		return nil, err
	}
	out := map[string]RemoteURLs{}
	for _, name := range rc.remoteNames() {
		out[name] = RemoteURLs{URLs: rc.getAll("remote." + name + ".url"), PushURLs: rc.getAll("remote." + name + ".pushurl")}
	}
	return out, nil
}

// NostrRepo returns the values of git config nostr.repo (what ngit writes:
// an naddr), in config order; nil when unset or the config cannot be read.
// Shell completion of --repo offers them.
func (c *Checkout) NostrRepo() []string {
	rc, err := c.repoConfig()
	if err != nil {
		return nil
	}
	return rc.getAll("nostr.repo")
}

// OriginCloneURLs returns the origin remote's `url` values that are not
// nostr:// (a nostr:// URL is the repository's address, not a clone URL),
// in config order: what repo init announces as clone URLs by default. A
// `pushurl` is where this checkout pushes, not where others clone, so it is
// not one. Nil when there is no origin or the config cannot be read.
func (c *Checkout) OriginCloneURLs() []string {
	remotes, err := c.Remotes()
	if err != nil {
		return nil
	}
	var out []string
	for _, u := range remotes["origin"].URLs {
		if !strings.HasPrefix(u, "nostr://") {
			out = append(out, u)
		}
	}
	return out
}

// FollowCoordinate anchors the checkout at another maintainer's coordinate
// (roster repo follow-lead: it "switches the local nostr:// coordinate and
// nostr.repo"): git config nostr.repo becomes to's naddr carrying relays as
// hints (so the checkout can still find its relays), and every `url`
// and `pushurl` of every remote that names from is rewritten to name to,
// keeping its relay hints, protocol segment and query. URLs naming any other
// coordinate, NIP-05 URLs (which cannot be compared without a lookup) and
// non-nostr URLs are left alone. Only those lines and nostr.repo change in
// the config file (see editConfig). Returns the names of the
// remotes it changed, sorted.
func (c *Checkout) FollowCoordinate(from, to graph.Coordinate, relays []string) ([]string, error) {
	if from.Identifier != to.Identifier || from.Kind != to.Kind {
		return nil, fmt.Errorf("follow %s from %s: they are different repositories", to, from)
	}
	rc, err := c.repoConfig()
	if err != nil {
		return nil, err
	}
	edits := []configEdit{replaceAll("nostr.repo", EncodeNaddr(to, relays))}
	var names []string
	for _, name := range rc.remoteNames() {
		changed := false
		for _, key := range []string{"url", "pushurl"} {
			full := "remote." + name + "." + key
			vals := rc.getAll(full)
			next, moved, err := retargetAll(vals, from, to)
			if err != nil {
				return nil, fmt.Errorf("remote %s: %w", name, err)
			}
			if moved {
				edits = append(edits, setValues(full, vals, next)...)
				changed = true
			}
		}
		if changed {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names, c.editConfig(rc, edits)
}

func retargetAll(urls []string, from, to graph.Coordinate) ([]string, bool, error) {
	out, changed := make([]string, len(urls)), false
	for i, u := range urls {
		out[i] = u
		ref, err := ParseNostrURL(u)
		if err != nil || ref.Coordinate != from {
			continue
		}
		if out[i], err = RetargetNostrURL(u, to); err != nil {
			return nil, false, err
		}
		changed = true
	}
	return out, changed, nil
}

// RetargetNostrURL rewrites the maintainer of a nostr:// URL to to's pubkey,
// keeping everything else byte for byte: the protocol segment, relay hints,
// identifier and query. An naddr URL gets a new naddr with the same relay
// hints. The identifier must not change.
func RetargetNostrURL(raw string, to graph.Coordinate) (string, error) {
	ref, err := ParseNostrURL(raw)
	if err != nil {
		return "", err
	}
	if ref.Coordinate.Identifier != to.Identifier {
		return "", fmt.Errorf("nostr URL %s names identifier %q, not %q", short(raw), ref.Coordinate.Identifier, to.Identifier)
	}
	s := strings.TrimSpace(raw)
	scheme, rest := s[:len("nostr://")], s[len("nostr://"):]
	end := len(rest)
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		end = i
	}
	segs := strings.Split(rest[:end], "/")
	owner, protocolSeen := -1, false
	for i, p := range segs {
		if p == "" {
			continue
		}
		d, _ := url.PathUnescape(p)
		proto := d
		if j := strings.LastIndexByte(proto, '@'); j >= 0 {
			proto = proto[j+1:]
		}
		if !protocolSeen && owner < 0 && protocols[strings.ToLower(proto)] && ref.Protocol != "" {
			protocolSeen = true
			continue
		}
		owner = i
		break
	}
	if owner < 0 {
		return "", fmt.Errorf("nostr URL %s names no maintainer", short(raw))
	}
	if strings.HasPrefix(strings.ToLower(segs[owner]), "naddr1") {
		segs[owner] = EncodeNaddr(to, ref.Relays)
	} else {
		segs[owner] = graph.Npub(to.Pubkey)
	}
	out := scheme + strings.Join(segs, "/") + rest[end:]
	check, err := ParseNostrURL(out)
	if err != nil || check.Coordinate != to {
		return "", fmt.Errorf("could not rewrite nostr URL %s to %s", short(raw), to)
	}
	return out, nil
}
