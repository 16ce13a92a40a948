package preflight

import (
	"testing"

	"github.com/roster-cli/roster/failure"
)

// Rule (docs/exit-codes.md): a refusal is exit 3, one caused by
// contradictory flags exit 2: its class says which, as every pipeline
// failure's does.
func TestARefusalHasTheClassOfItsExitCode(t *testing.T) {
	if c := refuse("self-add", "x").Class(); c != failure.Refused {
		t.Errorf("refusal class %s, want refused", c)
	}
	r := refuse("usage", "two relationship flags")
	r.Usage = true
	if c := r.Class(); c != failure.Usage {
		t.Errorf("usage refusal class %s, want usage", c)
	}
}
