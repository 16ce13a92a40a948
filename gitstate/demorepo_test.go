package gitstate

import (
	"context"
	"testing"
)

// Rule (the demo previews a change end to end): the demo repository's
// server advertises every ref its state names, so the availability check
// of a previewed change passes without any network.
func TestDemoRepositoryAdvertisesEveryRefItsStateNames(t *testing.T) {
	url, refs, err := DemoRepository(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if len(refs) != 4 || refs["refs/tags/v1.0.0^{}"] != refs["refs/heads/release-1.x"] || refs["refs/tags/v1.0.0"] == refs["refs/tags/v1.0.0^{}"] {
		t.Fatalf("refs %v", refs)
	}
	if av := CheckAvailability(context.Background(), ServersOf([]string{url}, true), refs); av.Verdict != Available {
		t.Fatalf("availability %+v", av)
	}
}
