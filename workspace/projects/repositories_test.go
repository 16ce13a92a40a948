package projects

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/workspace/pipeline"
)

func repoAddr(owner byte, d string) Member {
	return NewMember(strings.Repeat(string(owner), 64), d, "")
}

// Rule (NIP-MP identity edits keep what they do not change): adding and
// removing member repositories touches only their `a` tags; every other
// tag, known or unknown, odd spacing and extra elements included, is kept
// byte for byte and in order, and an `a` tag that names no repository is
// not a member and stays.
func TestRepositoryEditKeepsEveryOtherTagByteForByte(t *testing.T) {
	a, b, c := repoAddr('a', "one"), repoAddr('b', "two"), repoAddr('c', "three")
	old := nostr.Tags{
		{"d", "demo"},
		{"name", "  Demo\u00a0 "},
		{"a", a.Address, "wss://hint.example"},
		{"x-extension", "v", "", "more"},
		{"a", "30023:" + strings.Repeat("d", 64) + ":article"},
		{"a", b.Address},
		{"buzz-related-channel", "11111111-1111-4111-8111-111111111111"},
		{"t", "go"},
	}
	c.Relay = "wss://c.example"
	got, err := EditRepositories(old, RepositoryEdit{Add: []Member{c}, Remove: []string{a.Address}})
	if err != nil {
		t.Fatal(err)
	}
	want := nostr.Tags{old[0], old[1], old[3], old[4], old[5], old[6], old[7], {"a", c.Address, "wss://c.example"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("edited tags:\n got %q\nwant %q", got, want)
	}
	// The input is not changed.
	if old[2][2] != "wss://hint.example" || len(old) != 8 {
		t.Fatalf("input changed: %q", old)
	}
}

// Rule: an edit refused is refused before signing, with a code a script
// can read: a member added twice, a non-member removed, one address in both
// lists, or more than MaxRepositories members.
func TestRepositoryEditRefusesWhatItCannotApply(t *testing.T) {
	a, b := repoAddr('a', "one"), repoAddr('b', "two")
	base := nostr.Tags{{"d", "demo"}, {"a", a.Address}}
	for _, tc := range []struct {
		name string
		edit RepositoryEdit
		code string
	}{
		{"already a member", RepositoryEdit{Add: []Member{a}}, "already-member"},
		{"given twice", RepositoryEdit{Add: []Member{b, b}}, "already-member"},
		{"not a member", RepositoryEdit{Remove: []string{b.Address}}, "not-member"},
		{"both", RepositoryEdit{Add: []Member{b}, Remove: []string{b.Address}}, "usage"},
	} {
		_, err := EditRepositories(base, tc.edit)
		var pe *pipeline.Error
		if !errors.As(err, &pe) || pe.Code != tc.code {
			t.Errorf("%s: %v, want code %s", tc.name, err, tc.code)
		}
	}
	var many []Member
	for i := 0; i < MaxRepositories; i++ {
		many = append(many, repoAddr('c', strings.Repeat("r", i+1)))
	}
	if _, err := EditRepositories(nostr.Tags{{"d", "demo"}}, RepositoryEdit{Add: many}); err != nil {
		t.Fatalf("%d members: %v", MaxRepositories, err)
	}
	_, err := EditRepositories(base, RepositoryEdit{Add: many})
	var pe *pipeline.Error
	if !errors.As(err, &pe) || pe.Code != "too-many-repositories" {
		t.Fatalf("%d members: %v", MaxRepositories+1, err)
	}
	// Removing one makes room.
	if _, err := EditRepositories(base, RepositoryEdit{Add: many, Remove: []string{a.Address}}); err != nil {
		t.Fatalf("remove one, add %d: %v", MaxRepositories, err)
	}
}

// Rule: a repository coordinate is 30617:<64 lowercase hex>:<d>.
func TestParseRepositoryReadsOnlyRepositoryCoordinates(t *testing.T) {
	hex := strings.Repeat("a", 64)
	if m, err := ParseRepository("30617:" + hex + ":my:repo"); err != nil || m.Owner != hex || m.D != "my:repo" {
		t.Fatalf("%+v %v", m, err)
	}
	for _, bad := range []string{"30618:" + hex + ":r", "30617:" + strings.ToUpper(hex) + ":r", "30617:" + hex + ":", "30617:abc:r", ""} {
		if _, err := ParseRepository(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
