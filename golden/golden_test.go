package golden

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/roster-cli/roster/graph"
)

var update = flag.Bool("update", false, "rewrite the recorded expectation in golden/testdata/*.json")

func loadScenarios(t *testing.T) map[string]*Scenario {
	t.Helper()
	files, err := filepath.Glob("testdata/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	out := map[string]*Scenario{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		var s Scenario
		if err := dec.Decode(&s); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[f] = &s
	}
	return out
}

// TestGolden resolves every scenario, checks its hand-written spec facts,
// and compares the full resolution with the recorded expectation.
func TestGolden(t *testing.T) {
	for file, s := range loadScenarios(t) {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
			events, err := s.Build()
			if err != nil {
				t.Fatal(err)
			}
			r := s.Run(events)
			checkMust(t, s, r)
			checkResults(t, s, events, r)
			got, err := s.Summarize(r)
			if err != nil {
				t.Fatal(err)
			}
			recorded(t, file, s, &s.Expect, got, "resolution", "")
		})
	}
}

func aliasOf(s *Scenario, pk string) string {
	for _, a := range s.aliases() {
		if Pubkey(a) == pk {
			return a
		}
	}
	return pk
}

func aliasesOf(s *Scenario, pks []string) []string {
	out := []string{}
	for _, p := range pks {
		out = append(out, aliasOf(s, p))
	}
	return out
}

func sorted(in []string) []string {
	out := append([]string{}, in...)
	sort.Strings(out)
	return out
}

func checkMust(t *testing.T, s *Scenario, r *graph.Resolution) {
	t.Helper()
	m := s.Must
	if m.Lead != nil && aliasOf(s, r.Lead) != *m.Lead {
		t.Errorf("lead = %q, spec requires %q", aliasOf(s, r.Lead), *m.Lead)
	}
	if m.LeadSource != "" && string(r.LeadSource) != m.LeadSource {
		t.Errorf("lead_source = %s, spec requires %s", r.LeadSource, m.LeadSource)
	}
	if m.LeadPath != nil && !slices.Equal(aliasesOf(s, r.LeadPath), m.LeadPath) {
		t.Errorf("lead_path = %v, spec requires %v", aliasesOf(s, r.LeadPath), m.LeadPath)
	}
	var confirmed, invited, mods []string
	for _, x := range r.Maintainers {
		if x.Status == graph.StatusConfirmed {
			confirmed = append(confirmed, aliasOf(s, x.Pubkey))
		} else {
			invited = append(invited, aliasOf(s, x.Pubkey))
		}
	}
	for _, x := range r.Moderators {
		if x.Status == graph.StatusConfirmed {
			mods = append(mods, aliasOf(s, x.Pubkey))
		}
	}
	if m.Confirmed != nil && !slices.Equal(sorted(confirmed), sorted(m.Confirmed)) {
		t.Errorf("confirmed = %v, spec requires %v", sorted(confirmed), sorted(m.Confirmed))
	}
	if m.Invited != nil && !slices.Equal(sorted(invited), sorted(m.Invited)) {
		t.Errorf("invited = %v, spec requires %v", sorted(invited), sorted(m.Invited))
	}
	if m.Moderators != nil && !slices.Equal(sorted(mods), sorted(m.Moderators)) {
		t.Errorf("confirmed moderators = %v, spec requires %v", sorted(mods), sorted(m.Moderators))
	}
	codes := map[string]bool{}
	for _, f := range r.Health {
		codes[f.Code] = true
	}
	for _, c := range m.HealthCodes {
		if !codes[c] {
			t.Errorf("health lacks %s; got %v", c, r.Health)
		}
	}
	if m.NoHealth && len(r.Health) > 0 {
		t.Errorf("spec requires a healthy view; got %+v", r.Health)
	}
	if m.Lifecycle != "" && r.Lifecycle.Status != m.Lifecycle {
		t.Errorf("lifecycle = %+v, spec requires %s", r.Lifecycle, m.Lifecycle)
	}
	if m.FollowLead != nil && r.FollowLead != *m.FollowLead {
		t.Errorf("follow_lead = %v, spec requires %v", r.FollowLead, *m.FollowLead)
	}
	for alias, acts := range m.Allowed {
		for _, a := range acts {
			if !r.Authorized(Pubkey(alias), graph.Action(a), s.Now) {
				t.Errorf("%s must be allowed %s at %d", alias, a, s.Now)
			}
		}
	}
	for alias, acts := range m.Denied {
		for _, a := range acts {
			if r.Authorized(Pubkey(alias), graph.Action(a), s.Now) {
				t.Errorf("%s must be denied %s at %d", alias, a, s.Now)
			}
		}
	}
	if m.PendingAcks != nil {
		var got []string
		for _, p := range r.PendingAcknowledgements {
			got = append(got, aliasOf(s, p.Author)+":"+aliasOf(s, p.Pubkey)+":"+p.Transition)
		}
		if !slices.Equal(sorted(got), sorted(m.PendingAcks)) {
			t.Errorf("pending acknowledgements = %v, spec requires %v", sorted(got), sorted(m.PendingAcks))
		}
	}
	for i, want := range m.QueryResults {
		if i >= len(s.Queries) {
			t.Fatalf("query_results has more entries than queries")
		}
		q := s.Queries[i]
		if got := r.Authorized(Pubkey(q.Pubkey), graph.Action(q.Action), q.At); got != want {
			t.Errorf("Authorized(%s, %s, %d) = %v, spec requires %v", q.Pubkey, q.Action, q.At, got, want)
		}
	}
	for key, want := range m.HistoryEnds {
		e := historyEntry(t, s, r, key)
		if e != nil && e.Intervals[len(e.Intervals)-1].End != want {
			t.Errorf("history %s ends %+v, spec requires %s", key, e.Intervals, want)
		}
	}
	for key, want := range m.HistoryChosen {
		e := historyEntry(t, s, r, key)
		if e != nil && aliasOf(s, e.Source) != want {
			t.Errorf("history %s chosen from %s, spec requires %s", key, aliasOf(s, e.Source), want)
		}
	}
}

func historyEntry(t *testing.T, s *Scenario, r *graph.Resolution, key string) *graph.HistoryEntry {
	t.Helper()
	alias, role, _ := strings.Cut(key, ":")
	for i := range r.History {
		if r.History[i].Pubkey == Pubkey(alias) && r.History[i].Role == role && len(r.History[i].Intervals) > 0 {
			return &r.History[i]
		}
	}
	t.Errorf("no history entry %s", key)
	return nil
}
