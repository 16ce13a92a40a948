package graph

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"sync"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// Deterministic test identities: the secret key is sha256(alias).
var keyCache sync.Map

func secretOf(alias string) string {
	sum := sha256.Sum256([]byte(alias))
	return hex.EncodeToString(sum[:])
}

func pk(alias string) string {
	if v, ok := keyCache.Load(alias); ok {
		return v.(string)
	}
	p, err := nostr.GetPublicKey(secretOf(alias))
	if err != nil {
		panic(err)
	}
	keyCache.Store(alias, p)
	return p
}

const testID = "my-repo"

// ann builds and signs a kind 30617 announcement by alias. Tag values of
// the form <bob> are replaced by bob's pubkey.
func ann(t testing.TB, alias string, createdAt int64, tags ...[]string) *nostr.Event {
	t.Helper()
	e := &nostr.Event{Kind: KindAnnouncement, CreatedAt: nostr.Timestamp(createdAt), Tags: nostr.Tags{{"d", testID}}}
	for _, tag := range tags {
		e.Tags = append(e.Tags, expand(tag))
	}
	if err := e.Sign(secretOf(alias)); err != nil {
		t.Fatal(err)
	}
	return e
}

// del builds a kind 5 deletion by alias with the given tags.
func del(t testing.TB, alias string, createdAt int64, tags ...[]string) *nostr.Event {
	t.Helper()
	e := &nostr.Event{Kind: KindDeletion, CreatedAt: nostr.Timestamp(createdAt)}
	for _, tag := range tags {
		e.Tags = append(e.Tags, expand(tag))
	}
	if err := e.Sign(secretOf(alias)); err != nil {
		t.Fatal(err)
	}
	return e
}

var placeholder = regexp.MustCompile(`<([a-z][a-z0-9_-]*)>`)

func expand(tag []string) nostr.Tag {
	out := make(nostr.Tag, len(tag))
	for i, v := range tag {
		out[i] = placeholder.ReplaceAllStringFunc(v, func(m string) string { return pk(m[1 : len(m)-1]) })
	}
	return out
}

func sel(alias string) Coordinate { return NewCoordinate(pk(alias), testID) }

func resolve(t testing.TB, selected string, evts ...*nostr.Event) *Resolution {
	t.Helper()
	return Resolve(evts, sel(selected), 10_000, Options{})
}

func statusOf(r *Resolution, alias string) string {
	for _, m := range r.Maintainers {
		if m.Pubkey == pk(alias) {
			return m.Status
		}
	}
	return ""
}
