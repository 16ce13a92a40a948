package gitstate

import "sort"

// RefDiff compares a local ref map with a remote (state event) one. It is
// directional: OnlyLocal refs would be added by publishing local state,
// OnlyRemote refs would disappear, Differing refs would change oid.
type RefDiff struct {
	OnlyLocal  []string    `json:"only_local"`
	OnlyRemote []string    `json:"only_remote"`
	Differing  []RefChange `json:"differing"`
}

// RefChange is one ref present on both sides with different values.
type RefChange struct {
	Name   string `json:"name"`
	Local  string `json:"local"`
	Remote string `json:"remote"`
}

// Empty reports whether both sides agree.
func (d RefDiff) Empty() bool {
	return len(d.OnlyLocal) == 0 && len(d.OnlyRemote) == 0 && len(d.Differing) == 0
}

// DiffRefs compares local against remote; every list is sorted by ref name so
// output and tests are deterministic.
func DiffRefs(local, remote map[string]string) RefDiff {
	d := RefDiff{OnlyLocal: []string{}, OnlyRemote: []string{}, Differing: []RefChange{}}
	for name, lv := range local {
		rv, ok := remote[name]
		switch {
		case !ok:
			d.OnlyLocal = append(d.OnlyLocal, name)
		case rv != lv:
			d.Differing = append(d.Differing, RefChange{Name: name, Local: lv, Remote: rv})
		}
	}
	for name := range remote {
		if _, ok := local[name]; !ok {
			d.OnlyRemote = append(d.OnlyRemote, name)
		}
	}
	sort.Strings(d.OnlyLocal)
	sort.Strings(d.OnlyRemote)
	sort.Slice(d.Differing, func(i, j int) bool { return d.Differing[i].Name < d.Differing[j].Name })
	return d
}
