package preflight

// DiffStates lists the branch, tag and default-branch changes that turn
// from into to (nil: no state), an annotated tag and its peeled ^{}
// companion as one action: what a published state event changed.
func DiffStates(from, to *ResolvedState) []RefAction {
	return orEmpty(diffRefs(refsOf(from), headOf(from), refsOf(to), headOf(to)))
}
