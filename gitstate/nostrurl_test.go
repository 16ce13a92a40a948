package gitstate

import (
	"reflect"
	"strings"
	"testing"

	"github.com/roster-cli/roster/graph"
)

func TestParseRepoArgForms(t *testing.T) {
	aliceNaddr := EncodeNaddr(coord(alicePK, "my-repo"), []string{"wss://relay.example.com"})
	bareNaddr := EncodeNaddr(coord(alicePK, "my-repo"), nil)
	a := npub(alicePK)
	tests := []struct {
		name string
		in   string
		want Ref
	}{
		{"bare naddr", aliceNaddr, Ref{Coordinate: coord(alicePK, "my-repo"), Relays: []string{"wss://relay.example.com"}}},
		{"nostr: prefixed naddr (NIP-21)", "nostr:" + bareNaddr, Ref{Coordinate: coord(alicePK, "my-repo")}},
		{"nostr:// naddr", "nostr://" + aliceNaddr, Ref{Coordinate: coord(alicePK, "my-repo"), Relays: []string{"wss://relay.example.com"}}},
		{"npub and identifier", "nostr://" + a + "/my-repo", Ref{Coordinate: coord(alicePK, "my-repo")}},
		{"hex and identifier", "nostr://" + alicePK + "/my-repo", Ref{Coordinate: coord(alicePK, "my-repo")}},
		{"uppercase hex is lowered", "nostr://" + strings.ToUpper(alicePK) + "/my-repo", Ref{Coordinate: coord(alicePK, "my-repo")}},
		{"uppercase scheme", "NOSTR://" + a + "/my-repo", Ref{Coordinate: coord(alicePK, "my-repo")}},
		{"schemeless relay hint means wss", "nostr://" + a + "/relay.damus.io/my-repo",
			Ref{Coordinate: coord(alicePK, "my-repo"), Relays: []string{"wss://relay.damus.io"}}},
		{"several relay hints keep order", "nostr://" + a + "/relay.one/relay.two/my-repo",
			Ref{Coordinate: coord(alicePK, "my-repo"), Relays: []string{"wss://relay.one", "wss://relay.two"}}},
		{"percent-encoded ws relay with port", "nostr://" + a + "/ws%3A%2F%2Flocalhost%3A7777/my-repo",
			Ref{Coordinate: coord(alicePK, "my-repo"), Relays: []string{"ws://localhost:7777"}}},
		{"percent-encoded relay path stays in its segment", "nostr://" + a + "/relay.example.com%2Fnostr/my-repo",
			Ref{Coordinate: coord(alicePK, "my-repo"), Relays: []string{"wss://relay.example.com/nostr"}}},
		{"percent-encoded identifier", "nostr://" + a + "/my%20repo%2Fv2",
			Ref{Coordinate: coord(alicePK, "my repo/v2")}},
		{"relay hint host is lowercased", "nostr://" + a + "/Relay.Example.COM/my-repo",
			Ref{Coordinate: coord(alicePK, "my-repo"), Relays: []string{"wss://relay.example.com"}}},
		{"ssh protocol segment", "nostr://ssh/" + a + "/relay.damus.io/my-repo",
			Ref{Coordinate: coord(alicePK, "my-repo"), Relays: []string{"wss://relay.damus.io"}, Protocol: "ssh"}},
		{"https protocol segment", "nostr://https/" + a + "/my-repo", Ref{Coordinate: coord(alicePK, "my-repo"), Protocol: "https"}},
		{"http protocol segment", "nostr://http/" + a + "/my-repo", Ref{Coordinate: coord(alicePK, "my-repo"), Protocol: "http"}},
		{"git protocol segment", "nostr://git/" + a + "/my-repo", Ref{Coordinate: coord(alicePK, "my-repo"), Protocol: "git"}},
		{"user@ssh protocol segment", "nostr://keyfile@ssh/" + a + "/my-repo",
			Ref{Coordinate: coord(alicePK, "my-repo"), Protocol: "ssh", User: "keyfile"}},
		{"relay and protocol query parameters", "nostr://" + a + "/relay.one/my-repo?relay=wss%3A%2F%2Frelay.two&relay=relay.three&protocol=SSH&ssh_key_file=~/.ssh/k",
			Ref{Coordinate: coord(alicePK, "my-repo"), Relays: []string{"wss://relay.one", "wss://relay.two", "wss://relay.three"}, Protocol: "ssh"}},
		{"duplicate relay hints collapse", "nostr://" + a + "/relay.one/my-repo?relay=wss://relay.one/",
			Ref{Coordinate: coord(alicePK, "my-repo"), Relays: []string{"wss://relay.one"}}},
		{"trailing slash tolerated", "nostr://" + a + "/my-repo/", Ref{Coordinate: coord(alicePK, "my-repo")}},
		{"nip05 name stays unresolved", "nostr://Bob@Example.com/relay.one/my-repo",
			Ref{Coordinate: graph.Coordinate{Kind: graph.KindAnnouncement, Identifier: "my-repo"}, NIP05: "bob@example.com", Relays: []string{"wss://relay.one"}}},
		{"bare nip05 domain means _", "nostr://example.com/my-repo",
			Ref{Coordinate: graph.Coordinate{Kind: graph.KindAnnouncement, Identifier: "my-repo"}, NIP05: "_@example.com"}},
		{"remote name", "origin", Ref{Remote: "origin"}},
		{"remote name with slash", "team/upstream", Ref{Remote: "team/upstream"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseRepoArg(tt.in)
			if err != nil {
				t.Fatalf("ParseRepoArg(%q): %v", tt.in, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("ParseRepoArg(%q)\n got %+v\nwant %+v", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseRepoArgRejects(t *testing.T) {
	a := npub(alicePK)
	noteNaddr := EncodeNaddr(graph.Coordinate{Kind: 30023, Pubkey: alicePK, Identifier: "post"}, nil)
	tests := []struct {
		name, in, wantErr string
	}{
		{"empty", "  ", "empty"},
		{"no repository", "nostr://", "names no repository"},
		{"only protocol", "nostr://ssh/", "names no repository"},
		{"no identifier", "nostr://" + a, "no identifier"},
		{"bad npub checksum", "nostr://" + a[:len(a)-1] + "q/my-repo", "not an npub"},
		{"not an owner", "nostr://not_a_key/my-repo", "not an npub"},
		{"naddr of another kind", noteNaddr, "not a kind 30617"},
		{"broken naddr", "naddr1qqqqqq", "naddr"},
		{"path after naddr", "nostr://" + EncodeNaddr(coord(alicePK, "x"), nil) + "/extra", "nothing may follow"},
		{"bad percent-encoding", "nostr://" + a + "/bad%zzrelay/my-repo", "percent-encoding"},
		{"http relay hint", "nostr://" + a + "/http%3A%2F%2Frelay.one/my-repo", "not a relay URL"},
		{"bad relay query", "nostr://" + a + "/my-repo?relay=https://relay.one", "not a relay URL"},
		{"npub alone", a, "names a person, not a repository"},
		{"hex pubkey alone", alicePK, "names a person, not a repository"},
		{"remote name with space", "my remote", "not a remote name"},
		{"remote name with colon", "host:path", "not a remote name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseRepoArg(tt.in)
			if err == nil {
				t.Fatalf("ParseRepoArg(%q) = %+v, want an error containing %q", tt.in, got, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("ParseRepoArg(%q) error %q does not contain %q", tt.in, err, tt.wantErr)
			}
		})
	}
}

func TestNostrURLRoundTripsThroughParse(t *testing.T) {
	c := coord(bobPK, "my repo/with:odd?chars")
	relays := []string{"wss://relay.example.com/nostr", "ws://localhost:7777"}
	u := NostrURL(c, relays)
	if strings.Contains(u, "wss%3A") {
		t.Fatalf("NostrURL %q kept the wss:// scheme, ngit strips it", u)
	}
	got, err := ParseNostrURL(u)
	if err != nil {
		t.Fatalf("ParseNostrURL(%q): %v", u, err)
	}
	if got.Coordinate != c || !reflect.DeepEqual(got.Relays, relays) {
		t.Fatalf("round trip of %q: got %+v", u, got)
	}
}

func TestNaddrRoundTrip(t *testing.T) {
	c := coord(carolPK, "repo")
	n := EncodeNaddr(c, []string{"wss://r.one", "ws://127.0.0.1:9"})
	got, relays, err := DecodeNaddr(n)
	if err != nil {
		t.Fatal(err)
	}
	if got != c || !reflect.DeepEqual(relays, []string{"wss://r.one", "ws://127.0.0.1:9"}) {
		t.Fatalf("got %v %v", got, relays)
	}
	if EncodeNaddr(graph.Coordinate{Kind: 30617, Pubkey: "zz", Identifier: "x"}, nil) != "" {
		t.Fatal("EncodeNaddr of an invalid pubkey should be empty")
	}
}

// A mistyped npub is named as such, with what to check.
func TestDecodePubkeyNamesATypoedNpub(t *testing.T) {
	a := npub(alicePK)
	bad := a[:len(a)-1] + "q"
	if bad == a {
		bad = a[:len(a)-1] + "p"
	}
	_, err := DecodePubkey(bad)
	if err == nil || !strings.Contains(err.Error(), "not a valid npub") || !strings.Contains(err.Error(), "typo") {
		t.Fatalf("err %v", err)
	}
}
