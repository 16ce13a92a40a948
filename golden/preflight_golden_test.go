package golden

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/suggest"
)

// PreflightScenario is a builder golden: announcements by alias in, the
// author's replacement tags (or the refusal) out. It reuses Scenario's event
// format and alias placeholders. Files live in testdata/preflight/ so the
// graph runner's testdata/*.json glob does not read them.
type PreflightScenario struct {
	Name       string          `json:"name"`
	Spec       string          `json:"spec"`
	Identifier string          `json:"identifier,omitempty"`
	Selected   string          `json:"selected"`
	Author     string          `json:"author"`
	Now        int64           `json:"now"`
	Events     []Event         `json:"events"`
	Intent     PreflightIntent `json:"intent"`
	Must       PreflightMust   `json:"must"`
	Expect     json.RawMessage `json:"expect,omitempty"`
}

// PreflightIntent names people by alias.
type PreflightIntent struct {
	Action  string `json:"action"`
	Subject string `json:"subject,omitempty"`
	Lead    string `json:"lead,omitempty"`
	NoLead  bool   `json:"no_lead,omitempty"`
	Force   bool   `json:"force,omitempty"`
}

// PreflightMust is hand-written and never rewritten: the exact replacement
// tags (without d) the spec requires, or the refusal code.
type PreflightMust struct {
	Tags    [][]string `json:"tags,omitempty"`
	Refusal string     `json:"refusal,omitempty"`
}

// preflightRecord is the recorded expectation -update rewrites.
type preflightRecord struct {
	Tags     [][]string             `json:"tags"`
	Changes  []preflight.RoleChange `json:"changes,omitempty"`
	Sim      *preflight.Simulation  `json:"simulation,omitempty"`
	Refusal  *preflight.Refusal     `json:"refusal,omitempty"`
	Guidance []string               `json:"guidance,omitempty"`
}

func aliasPubkey(a string) string {
	if a == "" {
		return ""
	}
	return Pubkey(a)
}

func TestPreflightGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/preflight/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no preflight scenarios: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.DisallowUnknownFields()
			var ps PreflightScenario
			if err := dec.Decode(&ps); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			runPreflightScenario(t, file, &ps)
		})
	}
}

func runPreflightScenario(t *testing.T, file string, ps *PreflightScenario) {
	base := &Scenario{Identifier: ps.Identifier, Selected: ps.Selected, Viewer: ps.Author, Now: ps.Now, Events: ps.Events}
	for _, a := range []string{ps.Intent.Subject, ps.Intent.Lead} {
		if a != "" {
			base.Queries = append(base.Queries, Query{Pubkey: a}) // registers the alias for aliasing
		}
	}
	events, err := base.Build()
	if err != nil {
		t.Fatal(err)
	}
	in := preflight.Input{
		Author:   Pubkey(ps.Author),
		Selected: graph.NewCoordinate(Pubkey(ps.Selected), base.identifier()),
		Events:   events,
		Now:      ps.Now,
		Intent: preflight.Intent{Action: preflight.Action(ps.Intent.Action), Subject: aliasPubkey(ps.Intent.Subject),
			Lead: aliasPubkey(ps.Intent.Lead), NoLead: ps.Intent.NoLead, Force: ps.Intent.Force},
	}
	plan, refusal := preflight.Prepare(in)
	rec := preflightRecord{Refusal: refusal}
	if plan != nil {
		rec.Changes, rec.Sim, rec.Guidance = plan.Changes, &plan.Sim, preflight.GuidanceText(plan.Guidance, suggest.Selectors{})
		for _, tg := range plan.Tags {
			if len(tg) > 0 && tg[0] != "d" {
				rec.Tags = append(rec.Tags, tg)
			}
		}
	}
	checkPreflightMust(t, base, ps, rec)
	out, err := Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	got := []byte(base.alias(string(out)))
	recorded(t, file, ps, &ps.Expect, got, "preflight result", "-run TestPreflightGolden ")
}

// checkPreflightMust compares the hand-written spec facts.
func checkPreflightMust(t *testing.T, base *Scenario, ps *PreflightScenario, rec preflightRecord) {
	t.Helper()
	if ps.Must.Refusal != "" {
		if rec.Refusal == nil {
			t.Fatalf("must refuse %s; got tags %s", ps.Must.Refusal, base.alias(tagsJSON(rec.Tags)))
		}
		if rec.Refusal.Code != ps.Must.Refusal {
			t.Fatalf("refusal %s, must be %s: %s", rec.Refusal.Code, ps.Must.Refusal, base.alias(rec.Refusal.Message))
		}
		return
	}
	if rec.Refusal != nil {
		t.Fatalf("refused %s: %s", rec.Refusal.Code, base.alias(rec.Refusal.Message))
	}
	var want [][]string
	for _, tg := range ps.Must.Tags {
		w := make([]string, len(tg))
		for i, v := range tg {
			w[i] = expand(v)
		}
		want = append(want, w)
	}
	if !slices.EqualFunc(want, rec.Tags, slices.Equal) {
		t.Fatalf("replacement tags\n got: %s\nmust: %s", base.alias(tagsJSON(rec.Tags)), base.alias(tagsJSON(want)))
	}
}

func tagsJSON(tags [][]string) string {
	b, _ := json.Marshal(nostr.Tags(func() nostr.Tags {
		out := nostr.Tags{}
		for _, t := range tags {
			out = append(out, t)
		}
		return out
	}()))
	return string(b)
}
