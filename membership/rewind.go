package membership

import (
	"strings"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/preflight"
)

// maxContainedChecks bounds the `git merge-base --is-ancestor` runs one
// --force makes (the state's ref list comes from an event anyone may
// publish): a ref past the bound counts as not contained, so the command
// asks for it to be named rather than guessing.
const maxContainedChecks = 64

// contained says, for each ref of the state the repository resolves now,
// whether this checkout's same ref (local, else remote-tracking at that
// OID, as preflight.AlignCheckout reads the checkout) contains the state's
// commit: it is the same, or descends from it. An annotated tag is read
// through its peeled ^{} commit. preflight.Input.Contained.
func contained(v *discovery.View, local map[string]string, tracking []preflight.TrackingRef) map[string]bool {
	out := map[string]bool{}
	if v.State == nil || v.Checkout == nil {
		return out
	}
	cur := &preflight.ResolvedState{Author: v.State.Author, Head: v.State.Head, Refs: v.State.Refs}
	mine := preflight.AlignCheckout(cur, local, tracking).Refs
	checks := 0
	for ref, oid := range cur.Refs {
		if strings.HasSuffix(ref, "^{}") {
			continue
		}
		have, ok := mine[ref]
		if p, peeled := cur.Refs[ref+"^{}"]; peeled {
			oid = p
			if hp, ok2 := mine[ref+"^{}"]; ok2 {
				have = hp
			}
		}
		switch {
		case !ok:
			out[ref] = false
		case have == oid:
			out[ref] = true
		case checks >= maxContainedChecks:
			out[ref] = false
		default:
			checks++
			yes, err := v.Checkout.IsAncestor(oid, have)
			out[ref] = err == nil && yes
		}
	}
	return out
}

// rootCommit is the checkout's root commit for the identity comparison of
// a confirming change when one announcement carries no `r`
// (preflight.Input.RootCommit); "" when it cannot be read (a shallow
// clone, no commits) or the change confirms nobody it compares.
func rootCommit(v *discovery.View, intent preflight.Intent) string {
	if v.Checkout == nil || (intent.Action != preflight.ActAccept && intent.Action != preflight.ActAdd) {
		return ""
	}
	root, err := v.Checkout.RootCommit()
	if err != nil {
		return ""
	}
	return root
}
