package statepub

import (
	"fmt"
	"sort"
	"strings"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/gitstate"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/suggest"
)

// Comparison is `roster repo state`'s side of the comparison publish
// makes: the checkout's refs (with the remote-tracking branches of the
// repository's servers) against the view's resolved state, both ways, each
// ref by ancestry, and what `roster repo state publish` would do, computed
// by the code publish runs (compare).
type Comparison struct {
	// Dir is the checkout's directory and Remote the nostr:// remote
	// naming the coordinate ("" when there is none); Remotes every remote
	// whose remote-tracking branches count (Remote, then each remote
	// whose URL is an advertised clone URL).
	Dir, Remote string
	Remotes     []string
	// Resolved is the state compared with (nil: no state is resolved).
	Resolved  *preflight.ResolvedState
	Alignment preflight.CheckoutAlignment
	// Refs is each branch and tag of the checkout or the state, compared
	// by ancestry in the checkout's object store (nothing is fetched).
	Refs []RefStatus
	// Changes are what publishing this checkout changes in the resolved
	// state (Alignment.ForceWould), Rewrites those that `repo state
	// publish` refuses without --force: exactly what Plan carries.
	Changes  []preflight.RefAction
	Rewrites []Rewrite
}

// Aligned reports whether a state is resolved and the checkout matches it.
func (c *Comparison) Aligned() bool { return c.Resolved != nil && len(c.Alignment.Align) == 0 }

// Ref statuses.
const (
	RefSame          = "same"
	RefAhead         = "ahead"          // the checkout's commit descends from the published one
	RefBehind        = "behind"         // the published commit descends from the checkout's
	RefDiverged      = "diverged"       // neither descends from the other
	RefDiffers       = "differs"        // a tag at another object
	RefUnknown       = "unknown"        // a commit is not in this checkout: fetch first
	RefOnlyLocal     = "only-local"     // the checkout has it, the state does not
	RefOnlyPublished = "only-published" // the state has it, the checkout does not
)

// RefStatus is one ref of the checkout compared with the published state.
type RefStatus struct {
	Ref    string `json:"ref"`
	Status string `json:"status"`
	// Local is the checkout's object ("" when it lacks the ref), Published
	// the state's ("" when the state lacks it). Via names the
	// remote-tracking branch that stands for a branch the checkout has
	// only there ("origin/dev").
	Local     string `json:"local,omitempty"`
	Published string `json:"published,omitempty"`
	Via       string `json:"via,omitempty"`
	// Ahead and Behind count commits (ahead: only in the checkout's
	// history; behind: only in the published one).
	Ahead  int `json:"ahead"`
	Behind int `json:"behind"`
	// Reason says why the status is unknown.
	Reason string `json:"reason,omitempty"`
	// FastForward is the remote-tracking branch at the published commit
	// that a fast-forward of a branch behind brings it to ("" when none).
	FastForward string `json:"fast_forward,omitempty"`
	// CheckedOut: the branch is the one checked out.
	CheckedOut bool `json:"checked_out,omitempty"`
	// Next is what to run about it (nil: nothing): publish what is ahead
	// or only local, fast-forward what is behind, fetch what is missing.
	Next *suggest.Command `json:"-"`
}

// maxAncestryRefs bounds the refs compared by ancestry (one `git rev-list`
// each); the rest are reported unknown. A state's ref count is chosen by
// whoever published it.
const maxAncestryRefs = 256

// CompareCheckout reads the view's checkout refs and remote-tracking
// branches and compares them with the view's resolved state the way
// `repo state publish` does (compare), then each ref by ancestry. The view
// must have a checkout. It fails closed: refs that cannot be read
// completely are the reading's error, unwrapped, for the caller to refuse
// with (CodeLocalRefs).
func CompareCheckout(v *discovery.View) (*Comparison, error) {
	c, err := compare(v)
	if err != nil {
		return nil, err
	}
	// Publishing is suggested unless the viewer is known not to be a
	// confirmed maintainer (then `state publish` would refuse them).
	canPublish := v.Viewer == "" || v.Resolution == nil || v.Resolution.Confirmed(v.Viewer)
	c.Refs = refStatuses(v.Checkout, c, canPublish)
	return c, nil
}

// compare is the one comparison `repo state` shows and `repo state
// publish` acts on: the checkout's refs (gitstate.ReadStateRefs, with the
// remote-tracking branches of the nostr:// remote and of every remote
// whose URL is an advertised clone URL) against the resolved state
// (preflight.AlignCheckout), and each change publishing makes that needs
// --force: a removal, or an update whose new commit does not descend from
// the resolved one (asked of the checkout's object store).
func compare(v *discovery.View) (*Comparison, error) {
	co := v.Checkout
	refs, err := co.ReadStateRefs(v.Coordinate(), preferredRemote(v), gitstate.ComponentCloneServers(v.Resolution))
	if err != nil {
		return nil, err
	}
	c := &Comparison{Dir: co.Dir(), Remote: refs.NostrRemote, Remotes: refs.Remotes, Resolved: resolvedState(v)}
	c.Alignment = preflight.AlignCheckout(c.Resolved, refs.Local, TrackingOf(refs))
	c.Changes = c.Alignment.ForceWould
	c.Rewrites = rewrites(co, c.Changes)
	return c, nil
}

// TrackingOf is a checkout's remote-tracking branches as preflight
// compares them.
func TrackingOf(refs *gitstate.CheckoutRefs) []preflight.TrackingRef {
	out := make([]preflight.TrackingRef, 0, len(refs.Tracking))
	for _, t := range refs.Tracking {
		out = append(out, preflight.TrackingRef(t))
	}
	return out
}

// rewrites are the changes that need --force, each with its reason: a
// removal, a re-pointed tag, an update whose new commit does not descend
// from the resolved one.
func rewrites(co *gitstate.Checkout, changes []preflight.RefAction) []Rewrite {
	var out []Rewrite
	for _, c := range changes {
		switch c.Action {
		case "remove":
			out = append(out, Rewrite{c, "this checkout does not have it"})
		case "update":
			if strings.HasPrefix(c.Ref, "refs/tags/") {
				// A tag names one object for good: moving it, annotated or
				// not, is never a fast-forward (git push refuses it too),
				// whatever its peeled commit descends from.
				out = append(out, Rewrite{c, "a tag that already exists would be re-pointed"})
				continue
			}
			ok, err := co.IsAncestor(c.From, c.To)
			switch {
			case err != nil:
				out = append(out, Rewrite{c, fmt.Sprintf("descent from %s cannot be checked: this checkout does not have it (fetch it first)", c.From)})
			case !ok:
				out = append(out, Rewrite{c, fmt.Sprintf("%s does not descend from %s", c.To, c.From)})
			}
		}
	}
	return out
}

// refStatuses compares each branch and tag by ancestry: the checkout's
// ref map (its branches, those it has only through a remote-tracking
// branch, its tags) against the state's. A peeled "^{}" entry is its tag.
func refStatuses(co *gitstate.Checkout, c *Comparison, canPublish bool) []RefStatus {
	mine, theirs := c.Alignment.Refs, map[string]string{}
	if c.Resolved != nil {
		theirs = c.Resolved.Refs
	}
	names := map[string]bool{}
	for k := range mine {
		names[k] = true
	}
	for k := range theirs {
		names[k] = true
	}
	sorted := make([]string, 0, len(names))
	for k := range names {
		if !strings.HasSuffix(k, "^{}") {
			sorted = append(sorted, k)
		}
	}
	sort.Strings(sorted)
	out := make([]RefStatus, 0, len(sorted))
	asked := 0
	for _, k := range sorted {
		s := RefStatus{Ref: k, Local: mine[k], Published: theirs[k], Via: c.Alignment.TrackedBy[k]}
		switch {
		case s.Local == s.Published:
			s.Status = RefSame
		case s.Published == "":
			s.Status = RefOnlyLocal
		case s.Local == "":
			s.Status = RefOnlyPublished
		case !strings.HasPrefix(k, "refs/heads/"):
			s.Status = RefDiffers
		case asked >= maxAncestryRefs:
			s.Status, s.Reason = RefUnknown, fmt.Sprintf("not compared: only the first %d differing branches are", maxAncestryRefs)
		default:
			asked++
			ahead, behind, err := co.Divergence(s.Local, s.Published)
			switch {
			case err != nil:
				s.Status, s.Reason = RefUnknown, err.Error()
			case behind == 0:
				s.Status, s.Ahead = RefAhead, ahead
			case ahead == 0:
				s.Status, s.Behind = RefBehind, behind
				s.FastForward = c.Alignment.FastForward[k]
			default:
				s.Status, s.Ahead, s.Behind = RefDiverged, ahead, behind
			}
		}
		s.CheckedOut = k == c.Alignment.Checked
		s.Next = nextFor(s, c.Remotes, canPublish)
		out = append(out, s)
	}
	return out
}

// nextFor is the command that deals with one ref's status: publishing for
// a branch ahead or a ref only the checkout has, a fast-forward for a
// branch behind (to the remote-tracking branch at the published commit
// when there is one), a fetch of the first server remote for a commit the
// checkout lacks. Publishing is left out when the viewer cannot publish.
func nextFor(s RefStatus, remotes []string, canPublish bool) *suggest.Command {
	short := strings.TrimPrefix(s.Ref, "refs/heads/")
	var c suggest.Command
	switch {
	case s.Status == RefAhead || s.Status == RefOnlyLocal:
		if !canPublish {
			return nil
		}
		c = publishCmd(false)
	case s.Status == RefBehind:
		to := s.FastForward
		if to == "" {
			to = s.Published
		}
		if s.CheckedOut {
			c = suggest.Git("merge", "--ff-only", to)
		} else {
			c = suggest.Git("branch", "-f", short, to)
		}
	case (s.Status == RefUnknown || s.Status == RefOnlyPublished) && len(remotes) > 0:
		c = suggest.Git("fetch", remotes[0])
	default:
		return nil
	}
	return &c
}

// preferredRemote is the remote the selection came from ("remote <name>"),
// when it names exactly one.
func preferredRemote(v *discovery.View) string {
	if rest, ok := strings.CutPrefix(v.Selection.Detail, "remote "); ok && !strings.Contains(rest, ",") {
		return rest
	}
	return ""
}

// resolvedState is the view's resolved state as preflight compares it.
func resolvedState(v *discovery.View) *preflight.ResolvedState {
	if v.State == nil {
		return nil
	}
	return &preflight.ResolvedState{EventID: v.State.EventID, Author: v.State.Author, Head: v.State.Head, Refs: v.State.Refs}
}
