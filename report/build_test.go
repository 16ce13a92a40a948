package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/workspace/testkeys"
)

// Rule (stable --json): roster.repo/v2 prints every documented field, lists
// as [] and absent values as null, people as npubs; the fields that feed
// only the human output never reach JSON.
func TestRepoReportPrintsEveryFieldAndNeverNullLists(t *testing.T) {
	sk := testkeys.Named("report-test-", "alice")
	ann := testkeys.Sign(t, sk, &nostr.Event{Kind: graph.KindAnnouncement, CreatedAt: 100, Tags: nostr.Tags{{"d", "p"}, {"name", "P"}}})
	c := graph.NewCoordinate(ann.PubKey, "p")
	v := &discovery.View{Selection: gitstate.Selection{Coordinate: c}, Events: []*nostr.Event{ann},
		Resolution: graph.Resolve([]*nostr.Event{ann}, c, 200, graph.Options{}), Now: 200, Offline: true, Relays: []string{}}
	b, err := json.Marshal(FromView(v))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"schema", "coordinate", "selected_maintainer", "lead_maintainer", "lead_source", "lead_path", "maintainers",
		"moderators", "pending_history_acknowledgements", "health", "recommended_coordinate", "follow_lead_command", "lifecycle", "state", "relays", "complete"} {
		if _, ok := m[k]; !ok {
			t.Errorf("field %q missing", k)
		}
	}
	for _, k := range []string{"lead_path", "moderators", "pending_history_acknowledgements", "health", "relays"} {
		if _, ok := m[k].([]any); !ok {
			t.Errorf("%q is %v, want a list", k, m[k])
		}
	}
	if m["schema"] != RepoSchema || m["complete"] != false || !strings.HasPrefix(m["selected_maintainer"].(string), "npub1") {
		t.Errorf("%s", b)
	}
	for _, hidden := range []string{"Meta", "Offline", "Viewer"} {
		if strings.Contains(string(b), hidden) {
			t.Errorf("human-only field %s in JSON: %s", hidden, b)
		}
	}
}
