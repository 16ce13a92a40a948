package sections

import (
	"strings"
	"testing"
)

func placementWorkspace() *Workspace {
	w := &Workspace{}
	for i, l := range []string{"A", "B", "C", "D"} {
		w.Sections = append(w.Sections, Section{ID: uuidN('a', i), Rank: i, Label: l})
	}
	return w
}

// Moving one section builds the complete permutation reorder needs, with
// only that section's place changed.
func TestMoveSectionBuildsTheCompleteOrder(t *testing.T) {
	w := placementWorkspace()
	for _, c := range []struct {
		ref  string
		to   Placement
		want string
	}{
		{"D", Placement{Position: 1}, "DABC"},
		{"A", Placement{Position: 4}, "BCDA"},
		{"B", Placement{Position: 3}, "ACBD"},
		{"A", Placement{Before: "D"}, "BCAD"},
		{"D", Placement{After: "A"}, "ADBC"},
		{"A", Placement{After: "D"}, "BCDA"},
		{"C", Placement{Before: "A"}, "CABD"},
	} {
		b, err := w.MoveSectionBody(c.ref, c.to)
		if err != nil {
			t.Fatalf("%s %+v: %v", c.ref, c.to, err)
		}
		var got string
		for _, id := range b.SectionIDs {
			s, _ := w.FindSection(id)
			got += s.Label
		}
		if got != c.want || b.Op != OpReorder || b.Validate() != nil {
			t.Errorf("%s %+v: order %s, want %s", c.ref, c.to, got, c.want)
		}
	}
}

func TestMoveSectionRefusals(t *testing.T) {
	w := placementWorkspace()
	for _, c := range []struct {
		ref  string
		to   Placement
		want string
	}{
		{"B", Placement{Position: 2}, "reorder-unchanged"},
		{"B", Placement{After: "A"}, "reorder-unchanged"},
		{"B", Placement{Position: 5}, "between 1 and 4"},
		{"B", Placement{Position: -1}, "between 1 and 4"},
		{"B", Placement{}, "exactly one"},
		{"B", Placement{Position: 1, Before: "A"}, "exactly one"},
		{"B", Placement{Before: "B"}, "itself"},
		{"B", Placement{Before: "Z"}, "no section"},
		{"Z", Placement{Position: 1}, "no section"},
	} {
		if _, err := w.MoveSectionBody(c.ref, c.to); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %+v: %v, want %q", c.ref, c.to, err, c.want)
		}
	}
}
