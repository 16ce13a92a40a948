package graph

import "slices"

// RepositoryData is what a repository view shows of its announcements'
// descriptive fields, by the spec's rules (maintainers.md "Coordinates and
// repository data"): "Shared metadata follows the repository's existing
// authoritative recency rules. Personal clone servers, relays, Blossom
// servers, and grasp preferences remain authored independently and are
// unioned only from the confirmed component."
type RepositoryData struct {
	// Name, Description, Web and Hashtags are the shared fields, from the
	// newest announcement (NIP-01 order) of a confirmed maintainer;
	// SharedFrom is its author.
	Name, Description string
	Web, Hashtags     []string
	SharedFrom        string
	// Clone and Relays are each confirmed maintainer's own, unioned in
	// order (selected maintainer, lead, then the component's order), each
	// value once.
	Clone, Relays []string
	// EUC is the selected announcement's earliest unique commit.
	EUC string
}

// RepositoryDataOf reads r's repository data. Without a confirmed
// component (an unconfirmed selection, a deleted or archived coordinate)
// it is the selected announcement's, else its last observed snapshot's.
func RepositoryDataOf(r *Resolution) RepositoryData {
	sel := r.Announcements[r.SelectedMaintainer]
	if sel == nil {
		sel = r.LastSnapshot
	}
	var members []*Announcement
	seen := map[string]bool{}
	for _, pk := range append([]string{r.SelectedMaintainer, r.Lead}, r.Component...) {
		if a := r.Announcements[pk]; a != nil && !seen[pk] && slices.Contains(r.Component, pk) {
			seen[pk] = true
			members = append(members, a)
		}
	}
	if len(members) == 0 {
		if sel == nil {
			return RepositoryData{}
		}
		members = []*Announcement{sel}
	}
	newest := members[0]
	for _, a := range members[1:] {
		if a.Event != nil && newest.Event != nil && Newer(a.Event, newest.Event) {
			newest = a
		}
	}
	d := RepositoryData{Name: newest.Name, Description: newest.Description, Web: slices.Clone(newest.Web),
		Hashtags: slices.Clone(newest.Hashtags), SharedFrom: newest.Author}
	for _, a := range members {
		d.Clone = appendNew(d.Clone, a.Clone)
		d.Relays = appendNew(d.Relays, a.Relays)
	}
	if sel != nil {
		d.EUC = sel.EUC
	}
	return d
}

func appendNew(out, values []string) []string {
	for _, v := range values {
		if v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}
