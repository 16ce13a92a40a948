package preflight

import (
	"slices"
	"sort"
	"strings"
)

// TrackingRef is one remote-tracking branch of a remote that stands for the
// repository's servers (gitstate.TrackingRef): refs/remotes/<Remote>/<b>
// named Ref = refs/heads/<b>. LocalBehind: the checkout's own branch Ref is
// at an ancestor of OID, so a fast-forward brings it there.
type TrackingRef struct {
	Remote, Ref, OID string
	LocalBehind      bool
}

// Name is the remote-tracking branch as git names it ("origin/dev").
func (t TrackingRef) Name() string { return t.Remote + "/" + strings.TrimPrefix(t.Ref, "refs/heads/") }

// CheckoutAlignment is the directional comparison of a checkout's refs with
// a resolved kind 30618 state (maintainers.md "Membership mutation
// contract": "the exact local ref changes that would align conflicting
// state and the inverse ref changes that a forced replacement would
// impose").
type CheckoutAlignment struct {
	// Align are the changes that make the checkout match the state: a
	// branch or tag to add, update or remove, and the default branch to
	// set. Empty when the checkout matches or there is no state.
	Align []RefAction `json:"align"`
	// ForceWould are the inverse: what publishing the checkout's refs would
	// change in the state.
	ForceWould []RefAction `json:"force_would"`
	// Refs and Head are the checkout's refs as a state would carry them
	// (what `repo state publish` and `--force` publish): local branches and
	// tags, plus each state branch missing locally that a remote-tracking
	// branch of the repository's servers has at the state's OID.
	Refs map[string]string `json:"-"`
	Head string            `json:"-"`
	// Tracked are those state branches, counted as aligned through their
	// remote-tracking branch (a plain `git clone` has one local branch);
	// TrackedBy names, for each, the remote-tracking branch ("origin/dev").
	Tracked   []string          `json:"tracked"`
	TrackedBy map[string]string `json:"tracked_by"`
	// FastForward are the update actions of Align that a fast-forward
	// makes: the local branch is behind a remote-tracking branch that is at
	// the state's OID. Each maps the branch to that remote-tracking branch.
	FastForward map[string]string `json:"fast_forward"`
	// Checked is the branch checked out ("" when detached or unknown);
	// Remotes the remotes the remote-tracking branches came from, in order.
	Checked string   `json:"-"`
	Remotes []string `json:"-"`
	// trackedOIDs are the commits the remote-tracking branches point at.
	trackedOIDs map[string]bool
}

// HasTracked reports whether a remote-tracking branch points at oid.
func (a CheckoutAlignment) HasTracked(oid string) bool { return a.trackedOIDs[oid] }

// AlignCheckout compares a checkout with state (nil: no state is
// resolved). local is the checkout's ref map (gitstate LocalRefs shape;
// its HEAD entry, the checked-out branch, is ignored); tracking are the
// remote-tracking branches of the remotes that stand for the repository's
// servers (the nostr:// remote and every remote whose URL is an advertised
// clone URL), nil when there are none. A state branch missing locally is
// aligned when any of them has it at the state's OID.
//
// The checkout's default branch is the state's HEAD when the checkout has
// that branch (the checked-out branch is a working choice, not the
// repository's default), else ngit's rule: master, else main, else the
// first branch by name. An annotated tag and its "^{}" are one action.
// Pure.
func AlignCheckout(state *ResolvedState, local map[string]string, tracking []TrackingRef) CheckoutAlignment {
	a := CheckoutAlignment{Align: []RefAction{}, ForceWould: []RefAction{}, Tracked: []string{}, Refs: map[string]string{},
		TrackedBy: map[string]string{}, FastForward: map[string]string{}}
	for k, v := range local {
		if strings.HasPrefix(k, "refs/heads/") || strings.HasPrefix(k, "refs/tags/") {
			a.Refs[k] = v
		}
	}
	a.Checked, _ = strings.CutPrefix(local["HEAD"], "ref: ")
	a.trackedOIDs = map[string]bool{}
	for _, t := range tracking {
		a.trackedOIDs[t.OID] = true
		if !slices.Contains(a.Remotes, t.Remote) {
			a.Remotes = append(a.Remotes, t.Remote)
		}
	}
	stateRefs, stateHead := refsOf(state), headOf(state)
	for k, v := range stateRefs {
		if _, have := a.Refs[k]; have || !strings.HasPrefix(k, "refs/heads/") {
			continue
		}
		for _, t := range tracking {
			if t.Ref == k && t.OID == v {
				a.Refs[k] = v
				a.Tracked = append(a.Tracked, k)
				a.TrackedBy[k] = t.Name()
				break
			}
		}
	}
	sort.Strings(a.Tracked)
	a.Head = DefaultBranch(a.Refs, stateHead)
	if state != nil {
		a.Align = append(a.Align, diffRefs(a.Refs, "", stateRefs, "")...)
		if stateHead != "" && a.Head != stateHead {
			a.Align = append(a.Align, RefAction{Action: "set-default-branch", From: a.Head, To: stateHead})
		}
	}
	for _, act := range a.Align {
		if act.Action != "update" || !strings.HasPrefix(act.Ref, "refs/heads/") {
			continue
		}
		for _, t := range tracking {
			if t.Ref == act.Ref && t.OID == act.To && t.LocalBehind {
				a.FastForward[act.Ref] = t.Name()
				break
			}
		}
	}
	a.ForceWould = append(a.ForceWould, diffRefs(stateRefs, "", a.Refs, "")...)
	if a.Head != "" && a.Head != stateHead {
		a.ForceWould = append(a.ForceWould, RefAction{Action: "set-default-branch", From: stateHead, To: a.Head})
	}
	return a
}

// DefaultBranch is the default branch a state of refs names: prefer when
// refs has that branch, else refs/heads/master, else refs/heads/main, else
// the first branch by name; "" without branches.
func DefaultBranch(refs map[string]string, prefer string) string {
	if _, ok := refs[prefer]; ok && strings.HasPrefix(prefer, "refs/heads/") {
		return prefer
	}
	for _, b := range []string{"refs/heads/master", "refs/heads/main"} {
		if _, ok := refs[b]; ok {
			return b
		}
	}
	var first string
	for k := range refs {
		if strings.HasPrefix(k, "refs/heads/") && (first == "" || k < first) {
			first = k
		}
	}
	return first
}

// RenderRefActions are the actions as the spec's alignment lines ("add
// branch refs/heads/x at <oid>", "set default branch from a to b").
func RenderRefActions(as []RefAction) []string { return renderRefActions(as) }
