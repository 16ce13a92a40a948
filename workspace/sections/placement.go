package sections

import (
	"fmt"
	"slices"
)

// Placement is where one section goes: a 1-based position (as `workspace
// show` numbers sections), or right before or after another section. Exactly
// one is set.
type Placement struct {
	Position int    // 1..n; 0 when unset
	Before   string // section ref; "" when unset
	After    string // section ref; "" when unset
}

// MoveSectionBody reorders by moving one section: NIP-SW's reorder lists
// every active section, so the complete order is built from the current
// projection with only ref's place changed. A move that changes nothing is
// refused, so the command never only advances the revision.
func (w *Workspace) MoveSectionBody(ref string, to Placement) (*ManageReorder, error) {
	sec, err := w.FindSection(ref)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(w.Sections))
	from := -1
	for i, s := range w.Sections {
		ids = append(ids, s.ID)
		if s.ID == sec.ID {
			from = i
		}
	}
	rest := slices.Delete(slices.Clone(ids), from, from+1)
	at, err := w.placementIndex(sec.ID, rest, to)
	if err != nil {
		return nil, err
	}
	order := slices.Insert(rest, at, sec.ID)
	if slices.Equal(order, ids) {
		return nil, ruleErr("reorder-unchanged", "section %q is already at position %d; nothing to move", sec.Label, from+1)
	}
	return w.ReorderBody(order)
}

// placementIndex is where the moved section goes in rest (the order without
// it).
func (w *Workspace) placementIndex(moved string, rest []string, to Placement) (int, error) {
	set := 0
	for _, on := range []bool{to.Position != 0, to.Before != "", to.After != ""} {
		if on {
			set++
		}
	}
	if set != 1 {
		return 0, fmt.Errorf("say where the section goes with exactly one of --to <position>, --before <section>, --after <section>")
	}
	if to.Position != 0 {
		if to.Position < 1 || to.Position > len(w.Sections) {
			return 0, fmt.Errorf("position %d is not between 1 and %d, the number of sections", to.Position, len(w.Sections))
		}
		return to.Position - 1, nil
	}
	ref, after := to.Before, false
	if ref == "" {
		ref, after = to.After, true
	}
	anchor, err := w.FindSection(ref)
	if err != nil {
		return 0, err
	}
	if anchor.ID == moved {
		return 0, fmt.Errorf("a section cannot be placed before or after itself")
	}
	i := slices.Index(rest, anchor.ID)
	if after {
		i++
	}
	return i, nil
}
