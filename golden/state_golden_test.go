package golden

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roster-cli/roster/graph"
	"github.com/roster-cli/roster/preflight"
)

// StateScenario is a kind 30618 golden: announcements and state events by
// alias, one membership intent (and the runner's checkout refs), and the
// state side of its preview out: what was compared, the directional ref
// actions, the state the change would publish first, or the refusal. Files
// live in testdata/state/ (maintainers.md's state-collision fixtures).
type StateScenario struct {
	Name       string          `json:"name"`
	Spec       string          `json:"spec"`
	Identifier string          `json:"identifier,omitempty"`
	Selected   string          `json:"selected"`
	Author     string          `json:"author"`
	Now        int64           `json:"now"`
	Events     []Event         `json:"events"`
	Intent     PreflightIntent `json:"intent"`
	// LocalRefs and Tracking are the runner's checkout (gitstate.LocalRefs
	// shape) and its origin remote's tracking branches; absent: no checkout.
	LocalRefs map[string]string `json:"local_refs,omitempty"`
	Tracking  map[string]string `json:"tracking,omitempty"`
	// Later are events that arrive after the preview: the recheck's
	// fingerprint must name each as changed.
	Later  []Event         `json:"later,omitempty"`
	Must   StateMust       `json:"must"`
	Expect json.RawMessage `json:"expect,omitempty"`
}

// StateMust is hand-written and never rewritten.
type StateMust struct {
	Refusal string `json:"refusal,omitempty"`
	// Align and ForceWould are "action ref from to" lines (blank fields
	// left out), in order.
	Align      []string `json:"align,omitempty"`
	ForceWould []string `json:"force_would,omitempty"`
	// Publish is the reason of the state event published first ("force",
	// "handoff"), "none" for none.
	Publish string `json:"publish,omitempty"`
	// AfterAuthor is the alias whose state the change resolves afterwards
	// ("none": no state).
	AfterAuthor string `json:"after_author,omitempty"`
	// Changed are the fingerprint keys the Later events change
	// ("30618:<alias>").
	Changed []string `json:"changed,omitempty"`
}

type stateRecord struct {
	Refusal *preflight.Refusal         `json:"refusal,omitempty"`
	State   *preflight.StateComparison `json:"state,omitempty"`
	Newly   []string                   `json:"newly_confirmed,omitempty"`
	Changed []string                   `json:"changed,omitempty"`
}

func TestStateGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/state/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no state scenarios: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.DisallowUnknownFields()
			var ss StateScenario
			if err := dec.Decode(&ss); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			runStateScenario(t, file, &ss)
		})
	}
}

func runStateScenario(t *testing.T, file string, ss *StateScenario) {
	base := &Scenario{Identifier: ss.Identifier, Selected: ss.Selected, Viewer: ss.Author, Now: ss.Now, Events: ss.Events}
	if ss.Intent.Subject != "" {
		base.Queries = append(base.Queries, Query{Pubkey: ss.Intent.Subject})
	}
	events, err := base.Build()
	if err != nil {
		t.Fatal(err)
	}
	in := preflight.Input{Author: Pubkey(ss.Author), Selected: graph.NewCoordinate(Pubkey(ss.Selected), base.identifier()),
		Events: events, Now: ss.Now, LocalRefs: ss.LocalRefs, Tracking: originTracking(ss.Tracking),
		Intent: preflight.Intent{Action: preflight.Action(ss.Intent.Action), Subject: aliasPubkey(ss.Intent.Subject),
			Lead: aliasPubkey(ss.Intent.Lead), NoLead: ss.Intent.NoLead, Force: ss.Intent.Force}}
	plan, refusal := preflight.Prepare(in)
	rec := stateRecord{Refusal: refusal}
	if plan != nil {
		rec.State = &plan.State
		rec.Newly = plan.Sim.NewlyConfirmed
		if len(ss.Later) > 0 {
			later := &Scenario{Identifier: ss.Identifier, Selected: ss.Selected, Events: append(slices.Clone(ss.Events), ss.Later...)}
			all, err := later.Build()
			if err != nil {
				t.Fatal(err)
			}
			rec.Changed = preflight.FingerprintChanges(plan.Fingerprint, preflight.Fingerprint(all))
		}
	}
	checkStateMust(t, base, ss, rec)
	out, err := Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	got := []byte(base.alias(string(out)))
	recorded(t, file, ss, &ss.Expect, got, "state result", "-run TestStateGolden ")
}

func actionLines(as []preflight.RefAction) []string {
	var out []string
	for _, a := range as {
		out = append(out, strings.Join(slices.DeleteFunc([]string{a.Action, a.Ref, a.From, a.To}, func(s string) bool { return s == "" }), " "))
	}
	return out
}

func checkStateMust(t *testing.T, base *Scenario, ss *StateScenario, rec stateRecord) {
	t.Helper()
	m := ss.Must
	var align, force []preflight.RefAction
	switch {
	case m.Refusal != "":
		if rec.Refusal == nil || rec.Refusal.Code != m.Refusal {
			t.Fatalf("must refuse %s, got %+v", m.Refusal, rec.Refusal)
		}
		align, _ = rec.Refusal.Details["align"].([]preflight.RefAction)
		force, _ = rec.Refusal.Details["force_would"].([]preflight.RefAction)
	case rec.Refusal != nil:
		t.Fatalf("refused %s: %s", rec.Refusal.Code, base.alias(rec.Refusal.Message))
	default:
		align, force = rec.State.Align, rec.State.ForceWould
		publish := "none"
		if rec.State.Publish != nil {
			publish = rec.State.Publish.Reason
		}
		if m.Publish != "" && publish != m.Publish {
			t.Fatalf("publishes %s first, must publish %s", publish, m.Publish)
		}
		author := "none"
		if rec.State.After != nil {
			author = base.alias(rec.State.After.Author)
		}
		if m.AfterAuthor != "" && author != "<"+m.AfterAuthor+">" && author != m.AfterAuthor {
			t.Fatalf("resolves %s's state afterwards, must resolve %s's", author, m.AfterAuthor)
		}
	}
	if m.Align != nil && !slices.Equal(actionLines(align), m.Align) {
		t.Fatalf("align %q, must be %q", actionLines(align), m.Align)
	}
	if m.ForceWould != nil && !slices.Equal(actionLines(force), m.ForceWould) {
		t.Fatalf("force_would %q, must be %q", actionLines(force), m.ForceWould)
	}
	if m.Changed != nil {
		var want []string
		for _, c := range m.Changed {
			want = append(want, expand(c))
		}
		if !slices.Equal(rec.Changed, want) {
			t.Fatalf("changed %q, must be %q", base.alias(strings.Join(rec.Changed, " ")), m.Changed)
		}
	}
}

// originTracking is the fixture's tracking branches as the origin remote's.
func originTracking(m map[string]string) []preflight.TrackingRef {
	var out []preflight.TrackingRef
	for k, v := range m {
		out = append(out, preflight.TrackingRef{Remote: "origin", Ref: k, OID: v})
	}
	return out
}
