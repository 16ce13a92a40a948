package graph

import (
	"reflect"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

const (
	oidA = "1111111111111111111111111111111111111111"
	oidB = "2222222222222222222222222222222222222222"
	oidT = "3333333333333333333333333333333333333333"
	oidC = "abcdefabcdefabcdefabcdefabcdefabcdefabcd"
)

// stateAuthor is any pubkey: ParseState does not check signatures.
var stateAuthor = strings.Repeat("a", 64)

func stateEvent(tags ...nostr.Tag) *nostr.Event {
	return &nostr.Event{ID: strings.Repeat("e", 64), PubKey: stateAuthor, CreatedAt: 1700000000, Kind: 30618, Tags: tags}
}

func TestParseStateAsNgitWritesIt(t *testing.T) {
	evt := stateEvent(
		nostr.Tag{"d", "my-repo"},
		nostr.Tag{"refs/tags/v1^{}", oidA},
		nostr.Tag{"HEAD", "ref: refs/heads/main"},
		nostr.Tag{"refs/heads/main", oidA},
		nostr.Tag{"refs/heads/dev", oidB},
		nostr.Tag{"refs/tags/v1", oidT},
	)
	s, err := ParseState(evt)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"refs/heads/main": oidA, "refs/heads/dev": oidB, "refs/tags/v1": oidT, "refs/tags/v1^{}": oidA}
	if s.Head != "refs/heads/main" || !reflect.DeepEqual(s.Refs, want) || len(s.Invalid) != 0 {
		t.Fatalf("got %+v", s)
	}
	if s.Identifier != "my-repo" || s.Author != stateAuthor || s.EventID != evt.ID || s.CreatedAt != 1700000000 {
		t.Fatalf("metadata %+v", s)
	}
}

// ngit: "Readers keep names starting with refs/heads/, refs/tags or HEAD."
func TestParseStateIgnoresUnknownNames(t *testing.T) {
	s, err := ParseState(stateEvent(
		nostr.Tag{"d", "r"},
		nostr.Tag{"refs/remotes/origin/main", oidA},
		nostr.Tag{"refs/pull/1/head", oidA},
		nostr.Tag{"alt", "git state"},
		nostr.Tag{"refs/heads/main"}, // too short: not a ref tag
		nostr.Tag{"refs/heads/main", oidB},
	))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s.Refs, map[string]string{"refs/heads/main": oidB}) || len(s.Invalid) != 0 || s.Head != "" {
		t.Fatalf("got %+v", s)
	}
}

func TestParseStateReportsInvalidValues(t *testing.T) {
	s, err := ParseState(stateEvent(
		nostr.Tag{"d", "r"},
		nostr.Tag{"HEAD", "refs/heads/main"},
		nostr.Tag{"refs/heads/short", "abc"},
		nostr.Tag{"refs/heads/upper", strings.ToUpper(oidC)},
		nostr.Tag{"refs/heads/main", oidA},
		nostr.Tag{"refs/heads/main", oidB},
		nostr.Tag{"refs/heads/x^{}", oidA},
		nostr.Tag{"refs/heads/", oidA},
		nostr.Tag{"refs/tagsfoo", oidA},
	))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s.Refs, map[string]string{"refs/heads/main": oidA}) || s.Head != "" {
		t.Fatalf("refs %v head %q", s.Refs, s.Head)
	}
	names := map[string]bool{}
	for _, inv := range s.Invalid {
		names[inv.Name+"="+inv.Value] = true
	}
	for _, want := range []string{"HEAD=refs/heads/main", "refs/heads/short=abc", "refs/heads/upper=" + strings.ToUpper(oidC),
		"refs/heads/main=" + oidB, "refs/heads/x^{}=" + oidA, "refs/heads/=" + oidA, "refs/tagsfoo=" + oidA} {
		if !names[want] {
			t.Fatalf("Invalid %+v lacks %s", s.Invalid, want)
		}
	}
}

func TestParseStateRejectsWrongKindAndMissingD(t *testing.T) {
	e := stateEvent(nostr.Tag{"d", "r"})
	e.Kind = 30617
	if _, err := ParseState(e); err == nil {
		t.Fatal("kind 30617 accepted")
	}
	if _, err := ParseState(stateEvent(nostr.Tag{"refs/heads/main", oidA})); err == nil || !strings.Contains(err.Error(), "d tag") {
		t.Fatalf("missing d: %v", err)
	}
	if _, err := ParseState(nil); err == nil {
		t.Fatal("nil accepted")
	}
}
