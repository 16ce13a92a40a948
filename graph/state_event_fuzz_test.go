package graph

import (
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// FuzzParseState: whatever the tags, a parsed state keeps only valid refs
// and a HEAD on a branch.
func FuzzParseState(f *testing.F) {
	f.Add("d", "r", "HEAD", "ref: refs/heads/main", "refs/tags/v1^{}", oidA)
	f.Add("d", "", "refs/heads/x", "zz", "refs/tags", oidB)
	f.Fuzz(func(t *testing.T, n1, v1, n2, v2, n3, v3 string) {
		evt := &nostr.Event{Kind: 30618, Tags: nostr.Tags{{n1, v1}, {n2, v2}, {n3, v3}, {n1}}}
		s, err := ParseState(evt)
		if err != nil {
			return
		}
		for name, oid := range s.Refs {
			if RefNameProblem(name) != "" || !IsObjectID(oid) {
				t.Fatalf("kept invalid ref %q=%q", name, oid)
			}
		}
		if s.Head != "" && !strings.HasPrefix(s.Head, "refs/heads/") {
			t.Fatalf("head %q", s.Head)
		}
	})
}
