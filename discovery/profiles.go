package discovery

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/cache"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/relaypool"
)

// Profiles: the NIP-01 kind 0 metadata of the people a read shows, so
// they can be shown by the name they gave themselves. A name is a
// self-declared label, never an identity: anyone can claim "alice", so
// nothing decides on a name and the renderer shows full npubs when two
// people claim the same one. A NIP-05 address is kept only when its domain
// lists the profile's own pubkey for it.

// KindProfile is NIP-01 user metadata.
const KindProfile = 0

const (
	// ProfileMaxAge is how long a profile (or its absence) asked for once
	// answers from the cache before a read asks the relays again.
	ProfileMaxAge = int64(time.Hour / time.Second)
	// NIP05MaxAge is how long a NIP-05 lookup's answer is reused.
	NIP05MaxAge = int64(24 * time.Hour / time.Second)
	// MaxProfileAuthors bounds one profile request: the people a
	// resolution reaches are few, but an attacker's graph can name many.
	MaxProfileAuthors = 256
	// MaxNIP05Lookups bounds the HTTPS lookups of one read, MaxNIP05Parallel
	// how many run at once; one People.Timeout covers them all (a lookup
	// still waiting for a slot or an answer when it passes counts as
	// unverified and is not cached), so the NIP-05 checks of a read add at
	// most one timeout.
	MaxNIP05Lookups  = 32
	MaxNIP05Parallel = 8
	// MaxNameRunes cuts a claimed name; maxProfileContent skips parsing a
	// profile whose content is larger.
	MaxNameRunes      = 64
	maxProfileContent = 64 << 10
)

// Profile is what one person's latest verified kind 0 event says.
type Profile struct {
	Pubkey string
	// Name is the profile's `name`, else its `display_name`, trimmed and
	// cut to MaxNameRunes; "" when it gives neither.
	Name string
	// NIP05 is the profile's `nip05` address when its domain lists this
	// pubkey for it (checked, or a cached check younger than NIP05MaxAge);
	// "" otherwise.
	NIP05 string
	// Claimed is the `nip05` the profile claims, verified or not.
	Claimed string
}

// People configures the profile side of a discovery; a nil Source.People
// reads no profiles at all.
type People struct {
	// Fetch asks the relays for the profiles the cache does not hold
	// fresh, in one request per relay run alongside discovery's follow-up
	// rounds (a relay first named by the announcement, the deletion round
	// of complete evidence). Without it profiles come from the cache alone.
	// Profiles are never evidence: a relay that does not answer this
	// request leaves names unknown and the read as complete as it was.
	Fetch bool
	// HTTP is the client of NIP-05 lookups (nil: only cached checks count).
	HTTP *http.Client
	// Timeout bounds all of a read's NIP-05 lookups together.
	Timeout time.Duration
}

// ProfileFilter asks for the profiles of pubkeys.
func ProfileFilter(pubkeys []string) nostr.Filter {
	return nostr.Filter{Kinds: []int{KindProfile}, Authors: pubkeys}
}

// ParseProfile reads a kind 0 event's name and claimed NIP-05; a profile
// whose content is not a JSON object is no profile. Fields of another type
// than string are ignored.
func ParseProfile(e *nostr.Event) (Profile, bool) {
	if e == nil || e.Kind != KindProfile || len(e.Content) > maxProfileContent {
		return Profile{}, false
	}
	var raw map[string]json.RawMessage
	if json.Unmarshal([]byte(e.Content), &raw) != nil {
		return Profile{}, false
	}
	str := func(k string) string {
		var s string
		if v, ok := raw[k]; ok && json.Unmarshal(v, &s) == nil {
			return strings.TrimSpace(s)
		}
		return ""
	}
	p := Profile{Pubkey: e.PubKey, Name: str("name")}
	if p.Name == "" {
		p.Name = str("display_name")
	}
	p.Name = cutRunes(p.Name, MaxNameRunes)
	if n := strings.ToLower(str("nip05")); n != "" {
		p.Claimed = cutRunes(n, 2*MaxNameRunes)
	}
	return p, true
}

func cutRunes(s string, n int) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// LatestProfiles parses the newest kind 0 event of each author in events.
func LatestProfiles(events []*nostr.Event) map[string]Profile {
	latest := map[string]*nostr.Event{}
	for _, e := range events {
		if e == nil || e.Kind != KindProfile {
			continue
		}
		if cur := latest[e.PubKey]; cur == nil || graph.Newer(e, cur) {
			latest[e.PubKey] = e
		}
	}
	out := map[string]Profile{}
	for pk, e := range latest {
		if p, ok := ParseProfile(e); ok {
			out[pk] = p
		}
	}
	return out
}

// peopleFetch is a profile request running while discovery goes on.
type peopleFetch struct {
	asked []string
	done  chan *relaypool.FetchResult
}

// startPeople begins the profile side of a relay read once the first round
// has said who can be shown (reach): the people whose profile the cache
// does not hold fresh are asked of relays in one request per relay,
// in a goroutine, so it overlaps discovery's follow-up round instead of
// adding one. nil when src reads no profiles.
func startPeople(ctx context.Context, src Source, pool *relaypool.Pool, relays []string, people []string, now int64) *peopleFetch {
	if src.People == nil {
		return nil
	}
	people = boundPeople(people)
	pf := &peopleFetch{}
	if !src.People.Fetch {
		return pf
	}
	if store := openQuiet(src); store != nil {
		for _, pk := range people {
			// Never asked (0), asked long enough ago, or "asked" in the
			// future of a clock that moved back: ask.
			if at, err := store.ProfileCheckedAt(pk); err != nil || at == 0 || at > now || now-at >= ProfileMaxAge {
				pf.asked = append(pf.asked, pk)
			}
		}
		store.Close()
	} else {
		pf.asked = people
	}
	if len(pf.asked) == 0 {
		return pf
	}
	src.nextRound()
	pf.done = make(chan *relaypool.FetchResult, 1)
	go func() { pf.done <- pool.Fetch(ctx, relays, ProfileFilter(pf.asked)) }()
	return pf
}

// finish waits for the profile request, caches what it verified, checks
// the NIP-05 addresses the profiles claim and sets v.Profiles.
// The cached profiles cover everyone v.Events reaches, including people
// only a follow-up round reached.
func (pf *peopleFetch) finish(ctx context.Context, src Source, v *View, seeds []string) {
	if pf == nil {
		return
	}
	everyone := boundPeople(graph.Reachable(v.Events, v.Coordinate(), seeds...))
	v.Profiles = pf.profiles(ctx, src, everyone, v.Now)
}

// profiles waits for the request, caches what it verified and returns the
// latest profile of each of everyone (cache and fresh answers together),
// NIP-05 checked.
func (pf *peopleFetch) profiles(ctx context.Context, src Source, everyone []string, now int64) map[string]Profile {
	var fetched []*nostr.Event
	var res *relaypool.FetchResult
	if pf.done != nil {
		res = <-pf.done
		fetched = res.Events
	}
	store := openQuiet(src)
	if store == nil {
		return verifyNIP05(ctx, src.People, nil, LatestProfiles(fetched), now)
	}
	defer store.Close()
	if res != nil {
		if err := store.PutVerified(res.Verified(fetched)...); err != nil {
			src.warn("could not cache profiles: " + err.Error())
		}
		var answered []string
		if Answered(res) > 0 {
			answered = pf.asked
		}
		_ = store.ProfileChecked(now, answered...)
	}
	return verifyNIP05(ctx, src.People, store, cachedProfiles(store, everyone, fetched), now)
}

// ReadProfiles is the profile read of a command that shows people outside
// a repository discovery (workspace, project and group reads): the
// profiles of people the cache does not hold fresh are asked of relays in
// one request per relay (src.People.Fetch; offline or without it the cache
// alone), verified, cached and NIP-05 checked, as discovery does. Names
// are labels, never evidence: a relay that does not answer leaves them
// unknown. nil when src reads no profiles.
func ReadProfiles(ctx context.Context, src Source, relays, people []string, now int64) map[string]Profile {
	if src.People == nil || len(people) == 0 {
		return nil
	}
	if src.Offline || len(relays) == 0 || src.Pool == nil {
		store := openQuiet(src)
		if store != nil {
			defer store.Close()
		}
		return verifyNIP05(ctx, &People{}, store, cachedProfiles(store, boundPeople(people), nil), now)
	}
	pool := src.Pool()
	defer pool.Close()
	pf := startPeople(ctx, src, pool, relays, people, now)
	return pf.profiles(ctx, src, boundPeople(people), now)
}

// cachedProfiles is the latest profile of each of people among the cache
// and fresh, together.
func cachedProfiles(store *cache.Cache, people []string, fresh []*nostr.Event) map[string]Profile {
	evts := append([]*nostr.Event(nil), fresh...)
	if store != nil && len(people) > 0 {
		if cached, err := store.Query(ProfileFilter(people)); err == nil {
			evts = append(evts, cached...)
		}
	}
	return LatestProfiles(evts)
}

// readCachedPeople is the profile side of an offline read: the cache only,
// NIP-05 checks included.
func readCachedPeople(store *cache.Cache, src Source, v *View) {
	if src.People == nil {
		return
	}
	people := boundPeople(graph.Reachable(v.Events, v.Coordinate(), append([]string{v.Viewer}, src.Reach...)...))
	v.Profiles = verifyNIP05(context.Background(), &People{}, store, cachedProfiles(store, people, nil), v.Now)
}

func boundPeople(people []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, pk := range people {
		if pk != "" && !seen[pk] && len(out) < MaxProfileAuthors {
			seen[pk] = true
			out = append(out, pk)
		}
	}
	return out
}

// verifyNIP05 keeps each claimed NIP-05 address whose domain lists the
// profile's pubkey: from a cached lookup younger than NIP05MaxAge, else
// (with an HTTP client) by looking it up now, at most MaxNIP05Lookups of
// them, MaxNIP05Parallel at once, all within one opts.Timeout, and caching
// each answer (yes or no) that came before it.
func verifyNIP05(ctx context.Context, opts *People, store *cache.Cache, profiles map[string]Profile, now int64) map[string]Profile {
	var lookups []string
	for pk, p := range profiles {
		if p.Claimed == "" {
			continue
		}
		if store != nil {
			if c, ok, err := store.NIP05(p.Claimed); err == nil && ok && c.CheckedAt <= now && now-c.CheckedAt < NIP05MaxAge {
				if c.Pubkey == pk {
					p.NIP05 = p.Claimed
					profiles[pk] = p
				}
				continue
			}
		}
		if opts != nil && opts.Fetch && opts.HTTP != nil && len(lookups) < MaxNIP05Lookups {
			lookups = append(lookups, pk)
		}
	}
	if len(lookups) == 0 {
		return profiles
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = relaypool.DefaultTimeout
	}
	// One deadline for every lookup: MaxNIP05Lookups run
	// MaxNIP05Parallel at once, so a deadline each would add up to
	// MaxNIP05Lookups/MaxNIP05Parallel times the timeout.
	lctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	answers := make([]string, len(lookups))
	answered := make([]bool, len(lookups))
	var wg sync.WaitGroup
	slots := make(chan struct{}, MaxNIP05Parallel)
	for i, pk := range lookups {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case slots <- struct{}{}:
			case <-lctx.Done():
				return
			}
			defer func() { <-slots }()
			got, _, err := gitstate.ResolveNIP05(lctx, profiles[pk].Claimed, opts.HTTP)
			// A lookup the deadline cut short says nothing about the
			// address: it is not cached, and is asked again next time.
			answered[i] = err == nil || lctx.Err() == nil
			if err == nil {
				answers[i] = got
			}
		}()
	}
	wg.Wait()
	for i, pk := range lookups {
		p := profiles[pk]
		if answers[i] == pk {
			p.NIP05 = p.Claimed
			profiles[pk] = p
		}
		if store != nil && answered[i] {
			_ = store.PutNIP05(p.Claimed, cache.NIP05Check{Pubkey: answers[i], CheckedAt: now})
		}
	}
	return profiles
}

// openQuiet opens the cache without a warning: a cache that cannot be
// opened was already reported once by this read (openForFetch).
func openQuiet(src Source) *cache.Cache {
	if src.OpenCache == nil {
		return nil
	}
	c, err := src.OpenCache()
	if err != nil {
		return nil
	}
	return c
}
