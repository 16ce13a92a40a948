package announce

import (
	"slices"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

var (
	author = strings.Repeat("a", 64)
	root   = strings.Repeat("1", 40)
)

func prevWith(tags ...nostr.Tag) *nostr.Event {
	return &nostr.Event{Kind: 30617, PubKey: author, Tags: append(nostr.Tags{{"d", "x"}}, tags...)}
}

// Rule: init refreshes only an announcement of the same repository with no
// membership beyond its author; anything else is repo edit's job.
func TestInitRefreshesOnlyTheSameSoleMaintainerRepository(t *testing.T) {
	for _, c := range []struct {
		name string
		prev *nostr.Event
		why  string
	}{
		{"same root, sole", prevWith(nostr.Tag{"r", root, "euc"}, nostr.Tag{"maintainers", author}), ""},
		{"same root, URL r tag too", prevWith(nostr.Tag{"r", "https://git.example/x"}, nostr.Tag{"r", root, "euc"}), ""},
		{"other root", prevWith(nostr.Tag{"r", strings.Repeat("2", 40), "euc"}), "names root commit"},
		{"no root", prevWith(), "names no root commit"},
		{"roles", prevWith(nostr.Tag{"r", root, "euc"}, nostr.Tag{"M", author}), "records maintainer or moderator roles"},
		{"other maintainers", prevWith(nostr.Tag{"r", root, "euc"}, nostr.Tag{"maintainers", author, strings.Repeat("b", 64)}), "lists other people"},
	} {
		if got := identityDifference(c.prev, author, root); (c.why == "") != (got == "") || !strings.Contains(got, c.why) {
			t.Errorf("%s: %q, want %q", c.name, got, c.why)
		}
	}
}

// Rule: a refresh keeps every tag init does not write, in order, and a URL
// `r` tag is such a tag.
func TestInitCarriesTheTagsItDoesNotWrite(t *testing.T) {
	prev := prevWith(nostr.Tag{"r", "https://git.example/x"}, nostr.Tag{"r", root, "euc"}, nostr.Tag{"name", "old"},
		nostr.Tag{"t", "go"}, nostr.Tag{"maintainers", author}, nostr.Tag{"x-unknown", "1"})
	got := carriedTags(prev)
	want := nostr.Tags{{"r", "https://git.example/x"}, {"t", "go"}, {"maintainers", author}, {"x-unknown", "1"}}
	if !slices.EqualFunc(got, want, func(a, b nostr.Tag) bool { return slices.Equal(a, b) }) {
		t.Fatalf("carried %v, want %v", got, want)
	}
	got[0][1] = "changed"
	if prev.Tags[1][1] != "https://git.example/x" {
		t.Fatal("carried tags alias the old event")
	}
}

func TestIdentifierFromTheDirectoryName(t *testing.T) {
	if got := IdentifierFromDir("My Project\tTwo"); got != "my-project-two" {
		t.Fatalf("%q", got)
	}
	for _, bad := range []string{"", ".", "/", "a b", "a/b", "a\x00"} {
		if ValidIdentifier(bad) == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
