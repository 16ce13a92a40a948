package preflight

import (
	"slices"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/graph"
)

// writeRoleProjection writes the projection only into a role-aware
// replacement: a role-less announcement (a fresh one-person repository, or a
// legacy one the command did not migrate) keeps its tags as they are
// (maintainers.md "A fresh one-person repository emits no role or
// maintainers tag"; "Unrelated metadata changes do not migrate membership").
func (d *draft) writeRoleProjection() {
	if hasIndexedRoles(d.tags) {
		d.writeProjection()
	}
}

// writeProjection replaces the first `maintainers` tag with the recomputed
// projection and drops any further ones; with none, it goes right after the
// last role tag (or at the end).
func (d *draft) writeProjection() {
	p := append(nostr.Tag{"maintainers"}, projection(d.tags)...)
	out := make(nostr.Tags, 0, len(d.tags)+1)
	placed := false
	for _, t := range d.tags {
		if len(t) > 0 && t[0] == "maintainers" {
			if !placed {
				out = append(out, p)
				placed = true
			}
			continue
		}
		out = append(out, t)
	}
	if !placed {
		i := len(out)
		for j, t := range out {
			if len(t) > 0 && graph.IsRoleLetter(t[0]) {
				i = j + 1
			}
		}
		out = slices.Insert(out, i, p)
	}
	d.tags = out
}
