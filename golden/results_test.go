package golden

import (
	"slices"
	"strconv"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/actions"
	"github.com/roster-cli/roster/graph"
)

// checkResults checks the hand-written role-scoped results (must.results)
// against actions' effective results under the scenario's resolution.
func checkResults(t *testing.T, s *Scenario, events []*nostr.Event, r *graph.Resolution) {
	t.Helper()
	if len(s.Must.Results) == 0 {
		return
	}
	byID := map[string]actions.Result{}
	for _, res := range actions.NewIndex(events).Effective(r) {
		byID[res.Target] = res
	}
	index := map[string]int{}
	for i, e := range events {
		index[e.ID] = i
	}
	for key, want := range s.Must.Results {
		i, err := strconv.Atoi(key)
		if err != nil || i < 0 || i >= len(events) {
			t.Fatalf("results key %q names no event", key)
		}
		got, ok := byID[events[i].ID]
		if !ok {
			t.Errorf("event %d is not a target with results", i)
			continue
		}
		if got.Status != want.Status {
			t.Errorf("target %d: status %q, spec requires %q", i, got.Status, want.Status)
		}
		if want.Labels == nil {
			want.Labels = []string{}
		}
		if !slices.Equal(got.Labels, want.Labels) {
			t.Errorf("target %d: labels %v, spec requires %v", i, got.Labels, want.Labels)
		}
		if got.Subject != want.Subject {
			t.Errorf("target %d: subject %q, spec requires %q", i, got.Subject, want.Subject)
		}
		cover := -1
		if got.CoverNote != "" {
			cover = index[got.CoverNote]
		}
		if cover != want.CoverNote {
			t.Errorf("target %d: cover note from event %d, spec requires %d", i, cover, want.CoverNote)
		}
	}
}
