// Package importrules holds no code: its test reads every package's
// non-test imports and fails when one points against the direction
// docs/architecture.md ("Import direction") documents, so the rules there
// are kept by the build, not by review alone.
package importrules
