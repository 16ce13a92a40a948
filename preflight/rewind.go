package preflight

import (
	"fmt"
	"slices"
	"strings"
)

// forceRewinds guards a --force against the state the repository resolves
// now as well as the other view (maintainers.md: "--force ... keeps the
// command runner's complete current ref map"; "The preview lists the
// branches and tags this will add, update, or remove"). The other view's
// changes are ForceWould, which the state-conflict refusal showed before
// the user chose --force. When the current state is not that view (Alice's
// add forced over Bob's state while Carol's newer state is the one in
// effect), its changes are listed too (ForceCurrent), and each one that
// drops a commit this checkout does not contain (its ref is behind,
// diverged or missing) is refused unless the user names the ref with
// --rewind: a stale checkout never rewinds a co-maintainer's pushed work by
// accident.
func forceRewinds(c StateComparison, in StateInput, mine *ResolvedState) (StateComparison, *Refusal) {
	if in.Before == nil || mine == nil {
		return c, nil
	}
	seen := map[string]bool{}
	for _, a := range c.ForceWould {
		seen[a.Action+" "+a.Ref+" "+a.From+" "+a.To] = true
	}
	var lost []RefAction
	for _, a := range diffRefs(refsOf(in.Before), headOf(in.Before), refsOf(mine), headOf(mine)) {
		if seen[a.Action+" "+a.Ref+" "+a.From+" "+a.To] {
			continue
		}
		c.ForceCurrent = append(c.ForceCurrent, a)
		if (a.Action == "update" || a.Action == "remove") && !in.Contained[a.Ref] {
			lost = append(lost, a)
		}
	}
	var unnamed []RefAction
	for _, a := range lost {
		if !slices.Contains(in.Rewind, a.Ref) {
			unnamed = append(unnamed, a)
		}
	}
	if len(unnamed) == 0 {
		return c, nil
	}
	who := say("%s, %s", who(in.Before.Author), ago(in.Now, in.BeforeAt))
	lines := []any{"--force would rewind the state the repository resolves now, which this checkout does not contain:"}
	var names []string
	for _, a := range unnamed {
		switch a.Action {
		case "update":
			lines = append(lines, fmt.Sprintf("  rewinds %s from %s (%s) to %s", a.Ref, a.From, who, a.To))
		default:
			lines = append(lines, fmt.Sprintf("  removes %s at %s (%s)", a.Ref, a.From, who))
		}
		names = append(names, a.Ref)
	}
	lines = append(lines, "",
		"fetch and merge that work into this checkout, then rerun (the forced state then keeps it);",
		"or, to drop it deliberately, name each ref: "+strings.Join(prefixEach("--rewind ", names), " "))
	return c, refuse("force-rewinds", lines...).with("rewinds", unnamed).with("force_current", c.ForceCurrent).with("state_event", in.Before.EventID)
}

func prefixEach(p string, xs []string) []string {
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		out = append(out, p+x)
	}
	return out
}

// ago is a coarse age of at seen from now ("2 h ago").
func ago(now, at int64) string {
	d := now - at
	switch {
	case at == 0 || now == 0:
		return "published at an unknown time"
	case d < 0:
		return "dated in the future"
	case d < 60:
		return fmt.Sprintf("%d s ago", d)
	case d < 3600:
		return fmt.Sprintf("%d min ago", d/60)
	case d < 86400:
		return fmt.Sprintf("%d h ago", d/3600)
	default:
		return fmt.Sprintf("%d days ago", d/86400)
	}
}
