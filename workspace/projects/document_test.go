package projects

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

func TestIdentityReadsNIPMPTagsAndKeepsUnknownTagsInOrder(t *testing.T) {
	repoOwner := strings.Repeat("b", 64)
	evt := sign(t, ownerSK, &nostr.Event{Kind: 30621, CreatedAt: 1700000000, Tags: nostr.Tags{
		{"d", "demo"},
		{"x-zeta", "1"},
		{"name", "Demo"},
		{"a", "30617:" + repoOwner + ":repo-b", "wss://relay.example"},
		{"description", "A demo project"},
		{"a", "30617:" + repoOwner + ":repo-a"},
		{"a", "30023:" + repoOwner + ":article"},
		{"buzz-channel", home},
		{"buzz-related-channel", chanB},
		{"buzz-related-channel", chanA},
		{"buzz-visibility", "public"},
		{"auth", "token"},
		{"x-alpha", "2", "extra"},
	}})
	id, err := ParseIdentity(evt)
	if err != nil {
		t.Fatal(err)
	}
	d := id.Document
	if id.Coordinate != (Coordinate{Owner: pub(t, ownerSK), D: "demo"}) || d.Name != "Demo" ||
		d.Description != "A demo project" || d.HomeChannel != home || d.Visibility != "public" {
		t.Fatalf("fields %+v", id)
	}
	if fmt.Sprint(d.RelatedChannels) != fmt.Sprint([]string{chanA, chanB}) {
		t.Errorf("related %v", d.RelatedChannels)
	}
	if len(d.Members) != 2 || d.Members[0].D != "repo-a" || d.Members[1].Relay != "wss://relay.example" {
		t.Errorf("members %+v", d.Members)
	}
	wantUnknown := [][]string{{"x-zeta", "1"}, {"a", "30023:" + repoOwner + ":article"}, {"x-alpha", "2", "extra"}}
	if fmt.Sprint(d.Unknown) != fmt.Sprint(wantUnknown) {
		t.Errorf("unknown %v", d.Unknown)
	}
	// The effective tag set: known fields in deterministic order, unknown
	// tags verbatim in their relative order, no transport-only auth tag.
	got := fmt.Sprint(d.Tags())
	want := fmt.Sprint([][]string{
		{"d", "demo"}, {"name", "Demo"}, {"description", "A demo project"}, {"buzz-visibility", "public"},
		{"buzz-channel", home}, {"buzz-related-channel", chanA}, {"buzz-related-channel", chanB},
		{"a", "30617:" + repoOwner + ":repo-a"}, {"a", "30617:" + repoOwner + ":repo-b", "wss://relay.example"},
		{"x-zeta", "1"}, {"a", "30023:" + repoOwner + ":article"}, {"x-alpha", "2", "extra"},
	})
	if got != want {
		t.Errorf("tags\n got %s\nwant %s", got, want)
	}
}

func TestIdentityRejectsUnreadableTagSets(t *testing.T) {
	cases := map[string]nostr.Tags{
		"no d":                {{"name", "x"}},
		"two d":               {{"d", "a"}, {"d", "b"}},
		"d over 1024 bytes":   {{"d", strings.Repeat("x", 1025)}},
		"two names":           {{"d", "a"}, {"name", "x"}, {"name", "y"}},
		"home not a uuid":     {{"d", "a"}, {"buzz-channel", "general"}},
		"related not a uuid":  {{"d", "a"}, {"buzz-related-channel", "AAAAAAAA-1111-4111-8111-111111111111"}},
		"65 related channels": append(nostr.Tags{{"d", "a"}}, related(65)...),
	}
	for name, tags := range cases {
		evt := sign(t, ownerSK, &nostr.Event{Kind: 30621, CreatedAt: 1700000000, Tags: tags})
		if _, err := ParseIdentity(evt); !errors.Is(err, ErrIdentity) {
			t.Errorf("%s accepted: %v", name, err)
		}
	}
	ok := sign(t, ownerSK, &nostr.Event{Kind: 30621, CreatedAt: 1700000000, Tags: append(nostr.Tags{{"d", "a"}}, related(64)...)})
	if _, err := ParseIdentity(ok); err != nil {
		t.Errorf("64 related channels: %v", err)
	}
	bad := sign(t, ownerSK, &nostr.Event{Kind: 30621, CreatedAt: 1700000000, Tags: nostr.Tags{{"d", "a"}}})
	bad.Sig = strings.Repeat("0", 128)
	if _, err := ParseIdentity(bad); !errors.Is(err, ErrIdentity) {
		t.Errorf("bad signature accepted")
	}
}

func related(n int) nostr.Tags {
	var out nostr.Tags
	for _, u := range uuids(n, 0) {
		out = append(out, nostr.Tag{"buzz-related-channel", u})
	}
	return out
}
