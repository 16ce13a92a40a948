package preflight

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// ResolvedState is the kind 30618 state one resolution selects.
type ResolvedState struct {
	EventID string            `json:"event_id"`
	Author  string            `json:"author"`
	Head    string            `json:"head"` // "refs/heads/main", "" when unknown
	Refs    map[string]string `json:"refs"`
}

// StateInput is what the kind 30618 seam compares for one mutation.
type StateInput struct {
	Action Action
	// Before and After are the states resolved from the selected coordinate
	// before and after the replacement (nil: no eligible state event).
	Before, After *ResolvedState
	// Named is the state resolved from the named pubkey's own coordinate before
	// the change (the invitee's component on add, the inviting side's partner on
	// accept); nil when they have none.
	Named *ResolvedState
	// NamedUnresolved is the named pubkey when they have an announcement but
	// their own coordinate does not resolve them as a maintainer (its lead
	// source in NamedLeadSource), so Named could not be determined.
	NamedUnresolved, NamedLeadSource string
	// LocalRefs is the complete local ref map of the checkout running the
	// command (refs/heads/*, refs/tags/*), nil when the command runs outside a
	// checkout.
	LocalRefs map[string]string
	// Removed is the pubkey a removal closes.
	Removed string
	Force   bool
}

// RefAction is one branch or tag change; an annotated tag and its peeled ^{}
// companion are one action.
type RefAction struct {
	Action string `json:"action"` // add, update, remove, set-default-branch
	Ref    string `json:"ref"`
	From   string `json:"from,omitempty"`
	To     string `json:"to,omitempty"`
}

// StateComparison is the seam for the kind 30618 state comparison of
// maintainers.md "Confirmation can activate pre-existing state" and "Removal
// hands resolved state to a remaining maintainer". This first version is
// deliberately narrow and says so in Checked/NotChecked, which the command
// prints in previews.
//
// It checks: (1) the state resolved from the selected coordinate keeps the
// same default branch and complete ref/OID map across the change (a different
// event with identical data is compatible); (2) on add and accept, the named
// pubkey's own resolved state, if any, equals the post-change state; (3) on
// accept inside a checkout, the checkout's local refs equal the post-change
// state; (4) a removal of the author of the resolved state is refused, because
// the equivalent-state handoff event is not implemented yet.
//
// It does not check: whether every post-change OID is fetchable from the
// component's Git servers; state events of components other than the selected
// and the named one; deletion requests for old state; pre-existing
// maintainer or moderator actions that a join would newly authorize. And it
// never publishes: the --force state replacement (a fresh kind 30618 event
// ordered after every candidate) is the next step, so --force on a
// state-only conflict is refused as not yet available.
type StateComparison struct {
	Checked    []string       `json:"checked"`
	NotChecked []string       `json:"not_checked"`
	Before     *ResolvedState `json:"before"`
	After      *ResolvedState `json:"after"`
	// Align are the changes that make the command runner's repository match
	// the other view; ForceWould are the inverse changes --force would impose.
	Align      []RefAction `json:"align"`
	ForceWould []RefAction `json:"force_would"`
}

var stateNotChecked = []string{
	"fetchability of every post-change OID from the component's Git servers",
	"state events of components other than the selected and the named one",
	"deletion requests for old state events",
	"pre-existing maintainer or moderator actions a join would newly authorize",
}

// CompareState runs the seam. A non-nil Refusal means nothing may be published.
func CompareState(in StateInput) (StateComparison, *Refusal) {
	c := StateComparison{Before: in.Before, After: in.After, NotChecked: stateNotChecked}
	c.Checked = append(c.Checked, "selected-coordinate state before and after (default branch and ref/OID map)")
	if in.Removed != "" && in.Before != nil && in.Before.Author == in.Removed {
		return c, refuse("state-handoff-required",
			fmt.Sprintf("%s authored the kind 30618 state event that supplies this repository's resolved state (%s)", npub(in.Removed), in.Before.EventID),
			"removing them requires first publishing an equivalent state event signed by a remaining maintainer,",
			"which roster does not do yet; ask a remaining maintainer to publish the same state (for example with ngit push), then rerun").
			with("state_event", in.Before.EventID).with("state_author", npub(in.Removed))
	}
	var other *ResolvedState
	var label string
	switch {
	case !sameState(in.Before, in.After):
		other, label = in.After, "the post-change resolved state differs from the current one"
	case (in.Action == ActAdd || in.Action == ActAccept) && in.Named != nil && !sameState(in.Named, in.After):
		c.Checked = append(c.Checked, "the named pubkey's own resolved state")
		other, label = in.Named, "the named pubkey's existing repository state differs from the joined state"
	case in.Action == ActAccept && in.LocalRefs != nil && in.After != nil && !sameState(localState(in.LocalRefs, in.After.Head), in.After):
		c.Checked = append(c.Checked, "this checkout's local refs")
		local := localState(in.LocalRefs, in.After.Head)
		c.Align = diffRefs(local.Refs, local.Head, in.After.Refs, in.After.Head)
		c.ForceWould = diffRefs(in.After.Refs, in.After.Head, local.Refs, local.Head)
		return c, stateRefusal(in, c, "your checkout's branches and tags differ from the repository state you would join")
	default:
		switch {
		case in.NamedUnresolved != "" && (in.Action == ActAdd || in.Action == ActAccept):
			// Nothing was compared: their state becomes authoritative only
			// once they are confirmed, and then it is part of After, which
			// the first check compared.
			c.NotChecked = append(slices.Clone(c.NotChecked), fmt.Sprintf(
				"the named pubkey's own state (their coordinate resolves no maintainer set containing them, lead %s; their state counts only once they are confirmed)", in.NamedLeadSource))
		case in.Action == ActAdd || in.Action == ActAccept:
			c.Checked = append(c.Checked, "the named pubkey's own resolved state")
		}
		if in.Action == ActAccept && in.LocalRefs != nil {
			c.Checked = append(c.Checked, "this checkout's local refs")
		}
		if in.Force {
			return c, refuse("force-not-applicable", "--force only chooses your repository state when a state-only conflict was reported; there is none",
				forceStateOnlyDeferred, "rerun without --force")
		}
		return c, nil
	}
	mine := in.Before
	if in.Action == ActAccept && in.Named != nil {
		mine = in.Named
	}
	c.Align = diffRefs(refsOf(mine), headOf(mine), refsOf(other), headOf(other))
	c.ForceWould = diffRefs(refsOf(other), headOf(other), refsOf(mine), headOf(mine))
	return c, stateRefusal(in, c, label)
}

func stateRefusal(in StateInput, c StateComparison, why string) *Refusal {
	verb := "add this maintainer"
	if in.Action == ActAccept {
		verb = "accept this maintainer invitation"
	}
	lines := []string{fmt.Sprintf("cannot %s: repository state differs", verb), why, "",
		"to align the repository you control before retrying:"}
	lines = append(lines, indent(renderRefActions(c.Align))...)
	lines = append(lines, "", "publish the aligned state, then rerun the command")
	if len(c.ForceWould) > 0 {
		lines = append(lines, "--force would instead impose on the other view:")
		lines = append(lines, indent(renderRefActions(c.ForceWould))...)
	}
	lines = append(lines, "keeping your state with --force is not available: "+forceStateOnlyDeferred)
	return refuse("state-conflict", lines...).with("align", c.Align).with("force_would", c.ForceWould)
}

func renderRefActions(as []RefAction) []string {
	var out []string
	for _, a := range as {
		kind := "branch"
		if strings.HasPrefix(a.Ref, "refs/tags/") {
			kind = "tag"
		}
		switch a.Action {
		case "add":
			out = append(out, fmt.Sprintf("add %-6s %s at %s", kind, a.Ref, a.To))
		case "remove":
			out = append(out, fmt.Sprintf("remove %-6s %s at %s", kind, a.Ref, a.From))
		case "update":
			out = append(out, fmt.Sprintf("update %-6s %s from %s to %s", kind, a.Ref, a.From, a.To))
		case "set-default-branch":
			if a.From == "" {
				out = append(out, fmt.Sprintf("set default branch to %s", a.To))
				continue
			}
			out = append(out, fmt.Sprintf("set default branch from %s to %s", a.From, a.To))
		}
	}
	return out
}

// localState reads a gitstate.LocalRefs map (HEAD as "ref: <branch>") as a
// state; a detached or missing HEAD compares as the other side's default
// branch, since only the branches and tags are the checkout's to publish.
func localState(local map[string]string, otherHead string) *ResolvedState {
	s := &ResolvedState{Refs: map[string]string{}, Head: otherHead}
	for k, v := range local {
		if k == "HEAD" {
			if otherHead != "" && strings.HasPrefix(v, "ref: ") {
				s.Head = strings.TrimPrefix(v, "ref: ")
			}
			continue
		}
		s.Refs[k] = v
	}
	return s
}

func refsOf(s *ResolvedState) map[string]string {
	if s == nil {
		return nil
	}
	return s.Refs
}

func headOf(s *ResolvedState) string {
	if s == nil {
		return ""
	}
	return s.Head
}

func sameState(a, b *ResolvedState) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Head == b.Head && sameRefs(a.Refs, b.Refs)
}

func sameRefs(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// diffRefs lists what turns from into to; a peeled "^{}" entry folds into its tag.
func diffRefs(from map[string]string, fromHead string, to map[string]string, toHead string) []RefAction {
	var out []RefAction
	names := map[string]bool{}
	for k := range from {
		names[strings.TrimSuffix(k, "^{}")] = true
	}
	for k := range to {
		names[strings.TrimSuffix(k, "^{}")] = true
	}
	sorted := make([]string, 0, len(names))
	for k := range names {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		f, fok := from[k]
		t, tok := to[k]
		if fp, ok := from[k+"^{}"]; ok {
			f = fp
		}
		if tp, ok := to[k+"^{}"]; ok {
			t = tp
		}
		switch {
		case !fok && tok:
			out = append(out, RefAction{Action: "add", Ref: k, To: t})
		case fok && !tok:
			out = append(out, RefAction{Action: "remove", Ref: k, From: f})
		case f != t:
			out = append(out, RefAction{Action: "update", Ref: k, From: f, To: t})
		}
	}
	if fromHead != toHead && toHead != "" && fromHead != "" {
		out = append(out, RefAction{Action: "set-default-branch", From: fromHead, To: toHead})
	}
	return out
}
