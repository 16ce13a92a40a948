package project

import (
	"testing"

	"github.com/roster-cli/roster/discovery"
	"github.com/roster-cli/roster/workspace/projects"
)

// Rule (one bound, stated once per layer): the members a project may list
// and `project show`/`health` read together are exactly what one
// discovery.LoadMany reads; a larger project bound would make every read of
// a full project a ManyBound refusal, a smaller one would list members as
// not read that the read could have judged.
func TestAProjectsMemberBoundIsOneDiscoveryReadsBound(t *testing.T) {
	if projects.MaxRepositories != discovery.MaxMany {
		t.Fatalf("projects.MaxRepositories = %d, discovery.MaxMany = %d", projects.MaxRepositories, discovery.MaxMany)
	}
}
