package projects

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/workspace/channelid"
)

func TestChangeCommandCarriesExactlyATagAndExpectedRevision(t *testing.T) {
	c := testCoord(t)
	p, err := NewPatch([]string{chanB, chanA, chanA}, nil)
	if err != nil {
		t.Fatal(err)
	}
	evt, err := BuildChange(c, 7, p, 1700000000)
	if err != nil {
		t.Fatal(err)
	}
	if evt.Kind != 47010 || len(evt.Tags) != 2 ||
		len(evt.Tags[0]) != 2 || evt.Tags[0][0] != "a" || evt.Tags[0][1] != c.String() ||
		len(evt.Tags[1]) != 2 || evt.Tags[1][0] != "expected-revision" || evt.Tags[1][1] != "7" {
		t.Fatalf("tags %v", evt.Tags)
	}
	want := `{"patch":{"related_channels":{"add":["11111111-1111-4111-8111-111111111111","22222222-2222-4222-8222-222222222222"],"remove":[]}},"v":1}`
	if evt.Content != want {
		t.Fatalf("content\n got %s\nwant %s", evt.Content, want)
	}
	// The relay-side decoder reads back exactly what was built.
	evt = sign(t, otherSK, evt)
	gc, exp, gp, err := DecodeChange(evt)
	if err != nil || gc != c || exp != 7 || fmt.Sprint(gp) != fmt.Sprint(p) {
		t.Fatalf("decode: %v %v %d %v", err, gc, exp, gp)
	}
}

func TestPatchSetsAreCanonicalSortedAndDisjoint(t *testing.T) {
	if _, err := NewPatch([]string{chanA}, []string{chanA}); !errors.Is(err, ErrChange) {
		t.Errorf("overlap accepted: %v", err)
	}
	if _, err := NewPatch(nil, nil); !errors.Is(err, ErrChange) {
		t.Errorf("empty patch accepted: %v", err)
	}
	if _, err := NewPatch([]string{"11111111-1111-4111-8111-11111111111A"}, nil); !errors.Is(err, ErrChange) {
		t.Errorf("uppercase UUID accepted: %v", err)
	}
	if _, err := NewPatch([]string{"11111111111141118111111111111111"}, nil); !errors.Is(err, ErrChange) {
		t.Errorf("unhyphenated UUID accepted: %v", err)
	}
	p, err := NewPatch([]string{chanC, chanA}, []string{chanB})
	if err != nil || p.Add[0] != chanA || p.Add[1] != chanC {
		t.Errorf("not sorted: %v %v", p, err)
	}
}

func uuids(n, offset int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("00000000-0000-4000-8000-%012d", i+offset)
	}
	return out
}

func TestPatchHasAtMost64EntriesPerSet(t *testing.T) {
	if _, err := NewPatch(uuids(64, 0), uuids(64, 100)); err != nil {
		t.Errorf("64+64: %v", err)
	}
	if _, err := NewPatch(uuids(65, 0), nil); !errors.Is(err, ErrChange) {
		t.Errorf("65 adds accepted: %v", err)
	}
	if _, err := NewPatch(nil, uuids(65, 0)); !errors.Is(err, ErrChange) {
		t.Errorf("65 removes accepted: %v", err)
	}
}

func refusalCode(err error) string {
	var r *Refusal
	if errors.As(err, &r) {
		return r.Code
	}
	return ""
}

func TestChangeIsRefusedBeforeSigningWhenTheRelayWouldReject(t *testing.T) {
	doc := Document{D: "demo", HomeChannel: home, RelatedChannels: []string{chanA}}
	cases := []struct {
		name    string
		add     []string
		remove  []string
		deleted bool
		doc     Document
		code    string
	}{
		{"adding the home channel", []string{home}, nil, false, doc, "home-channel"},
		{"adding an already-related channel", []string{chanA}, nil, false, doc, "already-related"},
		{"removing an absent channel", nil, []string{chanB}, false, doc, "not-related"},
		{"changing a deleted project", []string{chanB}, nil, true, Document{}, "project-deleted"},
		{"exceeding 64 related channels", uuids(1, 64), nil, false, Document{D: "demo", RelatedChannels: uuids(64, 0)}, "too-many-related"},
		{"a valid add", []string{chanB}, nil, false, doc, ""},
		{"a valid remove", nil, []string{chanA}, false, doc, ""},
		{"the 64th channel", uuids(1, 63), nil, false, Document{D: "demo", RelatedChannels: uuids(63, 0)}, ""},
	}
	for _, tc := range cases {
		p, err := NewPatch(tc.add, tc.remove)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := refusalCode(p.Check(tc.deleted, tc.doc)); got != tc.code {
			t.Errorf("%s: refusal %q, want %q", tc.name, got, tc.code)
		}
	}
}

func TestPatchApplyAddsAndRemoves(t *testing.T) {
	p := Patch{Add: []string{chanC}, Remove: []string{chanA}}
	got := p.Apply([]string{chanB, chanA})
	if fmt.Sprint(got) != fmt.Sprint([]string{chanB, chanC}) {
		t.Fatalf("got %v", got)
	}
}

func TestRelayDecoderRejectsMalformedCommands(t *testing.T) {
	c := testCoord(t)
	base := func() *nostr.Event {
		p, _ := NewPatch([]string{chanA}, nil)
		e, err := BuildChange(c, 3, p, 1700000000)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	cases := map[string]func(e *nostr.Event){
		"extra tag":       func(e *nostr.Event) { e.Tags = append(e.Tags, nostr.Tag{"p", c.Owner}) },
		"two a tags":      func(e *nostr.Event) { e.Tags[1] = nostr.Tag{"a", c.String()} },
		"only one tag":    func(e *nostr.Event) { e.Tags = e.Tags[:1] },
		"relay hint on a": func(e *nostr.Event) { e.Tags[0] = append(e.Tags[0], "wss://x") },
		"expected 0":      func(e *nostr.Event) { e.Tags[1][1] = "0" },
		"expected 03":     func(e *nostr.Event) { e.Tags[1][1] = "03" },
		"expected +3":     func(e *nostr.Event) { e.Tags[1][1] = "+3" },
		"expected 2^63":   func(e *nostr.Event) { e.Tags[1][1] = "9223372036854775808" },
		"bad coordinate":  func(e *nostr.Event) { e.Tags[0][1] = "30617:" + c.Owner + ":demo" },
		"unknown field": func(e *nostr.Event) {
			e.Content = `{"v":1,"patch":{"related_channels":{"add":[],"remove":["` + chanA + `"]},"name":"x"}}`
		},
		"missing remove": func(e *nostr.Event) { e.Content = `{"v":1,"patch":{"related_channels":{"add":["` + chanA + `"]}}}` },
		"version 2": func(e *nostr.Event) {
			e.Content = `{"v":2,"patch":{"related_channels":{"add":["` + chanA + `"],"remove":[]}}}`
		},
		"empty patch": func(e *nostr.Event) { e.Content = `{"v":1,"patch":{"related_channels":{"add":[],"remove":[]}}}` },
		"overlap": func(e *nostr.Event) {
			e.Content = `{"v":1,"patch":{"related_channels":{"add":["` + chanA + `"],"remove":["` + chanA + `"]}}}`
		},
		"duplicate in add": func(e *nostr.Event) {
			e.Content = `{"v":1,"patch":{"related_channels":{"add":["` + chanA + `","` + chanA + `"],"remove":[]}}}`
		},
		"duplicate key": func(e *nostr.Event) {
			e.Content = `{"v":1,"v":1,"patch":{"related_channels":{"add":["` + chanA + `"],"remove":[]}}}`
		},
		"non-canonical uuid": func(e *nostr.Event) {
			e.Content = `{"v":1,"patch":{"related_channels":{"add":["{` + chanA + `}"],"remove":[]}}}`
		},
	}
	for name, edit := range cases {
		e := base()
		edit(e)
		if _, _, _, err := DecodeChange(e); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
	// "exactly those two tags" says nothing of their order.
	e := base()
	e.Tags[0], e.Tags[1] = e.Tags[1], e.Tags[0]
	if _, exp, _, err := DecodeChange(e); err != nil || exp != 3 {
		t.Errorf("swapped tags: %v", err)
	}
}

func FuzzDecodeChange(f *testing.F) {
	f.Add("3", `{"v":1,"patch":{"related_channels":{"add":["11111111-1111-4111-8111-111111111111"],"remove":[]}}}`)
	f.Add("01", `{"v":1,"patch":{"related_channels":{"add":[],"remove":[]}}}`)
	f.Add("9223372036854775807", `{"v":1,"patch":{"related_channels":{"add":[],"remove":["11111111-1111-4111-8111-111111111111"]},"x":1}}`)
	owner := strings.Repeat("a", 64)
	f.Fuzz(func(t *testing.T, expected, content string) {
		evt := &nostr.Event{Kind: KindChange, Tags: nostr.Tags{{"a", "30621:" + owner + ":demo"}, {"expected-revision", expected}}, Content: content}
		c, exp, p, err := DecodeChange(evt)
		if err != nil {
			return
		}
		if c.Owner != owner || exp < 1 || FormatRevision(exp) != expected || p.Validate() != nil {
			t.Fatalf("accepted %q %q as %v %d %v", expected, content, c, exp, p)
		}
		// What the relay accepts re-encodes to a command it accepts again.
		again, err := BuildChange(c, exp, p, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, p2, err := DecodeChange(again); err != nil || fmt.Sprint(p2) != fmt.Sprint(p) {
			t.Fatalf("round trip of %q: %v", content, err)
		}
	})
}

// The nil UUID names no channel: it is neither added nor removed, nor
// accepted from a person.
func TestNilUUIDIsNeverARelatedChannel(t *testing.T) {
	if _, err := NewPatch([]string{channelid.Nil}, nil); err == nil {
		t.Error("a patch adding the nil UUID was built")
	}
	if _, err := NewPatch(nil, []string{channelid.Nil}); err == nil {
		t.Error("a patch removing the nil UUID was built")
	}
	if _, err := NormalizeUUID(channelid.Nil); err == nil {
		t.Error("the nil UUID was accepted from a person")
	}
}
