package workspace

import (
	"fmt"
	"slices"
	"strings"

	"github.com/roster-cli/roster/report"
	"github.com/roster-cli/roster/termtext"
)

// changes says in a few lines what one write changed between two views of
// a workspace: sections added, removed, renamed or reordered, channels
// assigned, moved or unassigned, readers granted, revoked or given another
// role. A write prints these instead of the whole workspace again.
func changes(before, after report.Workspace, name func(npub string) string) []string {
	var out []string
	label := func(v report.Workspace, id string) string {
		for _, s := range v.Sections {
			if s.ID == id {
				return termtext.Line(s.Label)
			}
		}
		return termtext.Line(id)
	}
	was := map[string]report.WorkspaceSection{}
	for _, s := range before.Sections {
		was[s.ID] = s
	}
	now := map[string]report.WorkspaceSection{}
	for _, s := range after.Sections {
		now[s.ID] = s
		old, ok := was[s.ID]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("section added: %s", termtext.Line(s.Label)))
		case old.Label != s.Label:
			out = append(out, fmt.Sprintf("section renamed: %s -> %s", termtext.Line(old.Label), termtext.Line(s.Label)))
		}
	}
	for _, s := range before.Sections {
		if _, ok := now[s.ID]; !ok {
			line := fmt.Sprintf("section removed: %s", termtext.Line(s.Label))
			if n := len(s.Channels); n > 0 {
				line += fmt.Sprintf("; its %d channel(s) are now in no section", n)
			}
			out = append(out, line)
		}
	}
	if order := sectionOrder(after); len(before.Sections) == len(after.Sections) && order != sectionOrder(before) && len(out) == 0 {
		out = append(out, "sections now in this order: "+order)
	}
	inBefore, inAfter := assignments(before), assignments(after)
	for _, ch := range sortedKeys(inBefore, inAfter) {
		from, had := inBefore[ch]
		to, has := inAfter[ch]
		switch {
		case !had && has:
			out = append(out, fmt.Sprintf("channel %s: assigned to %s", termtext.Line(ch), label(after, to)))
		case had && !has:
			if _, still := now[from]; still { // a removed section's channels are said above
				out = append(out, fmt.Sprintf("channel %s: unassigned from %s", termtext.Line(ch), label(before, from)))
			}
		case from != to:
			out = append(out, fmt.Sprintf("channel %s: moved from %s to %s", termtext.Line(ch), label(before, from), label(after, to)))
		}
	}
	roleBefore, roleAfter := map[string]string{}, map[string]string{}
	for _, r := range before.Readers {
		roleBefore[r.Npub] = r.Role
	}
	for _, r := range after.Readers {
		roleAfter[r.Npub] = r.Role
	}
	for _, npub := range sortedKeys(roleBefore, roleAfter) {
		b, had := roleBefore[npub]
		r, has := roleAfter[npub]
		switch {
		case !had && has:
			out = append(out, fmt.Sprintf("%s can now read it as %s", name(npub), r))
		case had && !has:
			out = append(out, fmt.Sprintf("%s can no longer read it (was %s)", name(npub), b))
		case b != r:
			out = append(out, fmt.Sprintf("%s is now %s (was %s)", name(npub), r, b))
		}
	}
	if after.KeyEpoch != before.KeyEpoch {
		out = append(out, fmt.Sprintf("workspace key rotated (epoch %d -> %d)", before.KeyEpoch, after.KeyEpoch))
	}
	return out
}

func sectionOrder(v report.Workspace) string {
	labels := make([]string, len(v.Sections))
	for i, s := range v.Sections {
		labels[i] = fmt.Sprintf("%d. %s", i+1, termtext.Line(s.Label))
	}
	return strings.Join(labels, ", ")
}

func assignments(v report.Workspace) map[string]string {
	out := map[string]string{}
	for _, s := range v.Sections {
		for _, c := range s.Channels {
			out[c] = s.ID
		}
	}
	return out
}

func sortedKeys[V any](ms ...map[string]V) []string {
	var keys []string
	for _, m := range ms {
		for k := range m {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	slices.Sort(keys)
	return keys
}
