package preflight

// rootWithoutEUC compares something when one announcement carries no `r`
// earliest unique commit (maintainers.md: "resolve repository identity ...
// including the r earliest unique commit"): the runner's checkout root
// commit stands for the runner's side. On an accept the runner is the
// invitee (theirs), on an add the inviter (ours). A root that differs from
// the other side's `r` is a different repository, the same identity
// conflict as two differing `r` tags. With no checkout, or `r` on neither
// side, nothing can be compared and nothing is refused.
func rootWithoutEUC(in Input, theirs, ours, named string) (IdentityChange, bool) {
	root := in.RootCommit
	if root == "" {
		return IdentityChange{}, false
	}
	switch {
	case in.Intent.Action == ActAccept && theirs == "" && ours != "" && root != ours:
		return IdentityChange{Field: "r euc", Who: named, Before: "none (this checkout's root commit is " + root + ")", After: ours}, true
	case in.Intent.Action != ActAccept && ours == "" && theirs != "" && root != theirs:
		return IdentityChange{Field: "r euc", Who: named, Before: theirs, After: "none (this checkout's root commit is " + root + ")"}, true
	}
	return IdentityChange{}, false
}
