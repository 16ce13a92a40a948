package watch_test

import (
	"testing"

	"github.com/roster-cli/roster/watch"
)

// Rule: the fingerprint compares the answer, not how the read went: keys
// named to drop are ignored at every depth, everything else counts.
func TestFingerprintIgnoresOnlyTheDroppedKeys(t *testing.T) {
	type relay struct {
		URL    string `json:"url"`
		Status string `json:"status"`
		Events int    `json:"events"`
	}
	type doc struct {
		Lead   string  `json:"lead"`
		Relays []relay `json:"relays"`
	}
	fp := func(d doc) string {
		t.Helper()
		s, err := watch.Fingerprint(d, "status", "events")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a := fp(doc{Lead: "alice", Relays: []relay{{URL: "ws://a", Status: "ok", Events: 3}}})
	if b := fp(doc{Lead: "alice", Relays: []relay{{URL: "ws://a", Status: "timeout", Events: 9}}}); a != b {
		t.Error("a dropped key changed the fingerprint")
	}
	if c := fp(doc{Lead: "bob", Relays: []relay{{URL: "ws://a", Status: "ok", Events: 3}}}); a == c {
		t.Error("a changed answer kept the fingerprint")
	}
	if d := fp(doc{Lead: "alice", Relays: []relay{{URL: "ws://b", Status: "ok", Events: 3}}}); a == d {
		t.Error("a kept key inside a list did not count")
	}
}
