package discovery

import (
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

func signedProfile(t *testing.T, sk, content string, created int64) *nostr.Event {
	t.Helper()
	e := &nostr.Event{Kind: KindProfile, CreatedAt: nostr.Timestamp(created), Tags: nostr.Tags{}, Content: content}
	if err := e.Sign(sk); err != nil {
		t.Fatal(err)
	}
	return e
}

// Rule (a profile name is a label): name wins over display_name, the
// NIP-05 claim is kept only as a claim, fields of another type are
// ignored, a long name is cut, and content that is not a JSON object is
// no profile.
func TestParseProfileReadsNameAndClaim(t *testing.T) {
	sk := nostr.GeneratePrivateKey()
	cases := []struct {
		content, name, claimed string
		ok                     bool
	}{
		{`{"name":" alice ","display_name":"Alice A.","nip05":"Alice@Example.com"}`, "alice", "alice@example.com", true},
		{`{"display_name":"Alice A."}`, "Alice A.", "", true},
		{`{"name":42,"nip05":["x"]}`, "", "", true},
		{`{"name":"` + strings.Repeat("a", 100) + `"}`, strings.Repeat("a", MaxNameRunes) + "…", "", true},
		{`["alice"]`, "", "", false},
		{`not json`, "", "", false},
	}
	for _, c := range cases {
		p, ok := ParseProfile(signedProfile(t, sk, c.content, 1))
		if ok != c.ok || p.Name != c.name || p.Claimed != c.claimed || p.NIP05 != "" {
			t.Fatalf("%s: got %+v %v, want name %q claimed %q ok %v", c.content, p, ok, c.name, c.claimed, c.ok)
		}
	}
}

// Rule (replaceable events): the newest profile of each author wins.
func TestLatestProfilesKeepsTheNewestPerAuthor(t *testing.T) {
	sk := nostr.GeneratePrivateKey()
	old := signedProfile(t, sk, `{"name":"old"}`, 1)
	cur := signedProfile(t, sk, `{"name":"new"}`, 2)
	got := LatestProfiles([]*nostr.Event{cur, old})
	if len(got) != 1 || got[cur.PubKey].Name != "new" {
		t.Fatalf("got %+v", got)
	}
}
