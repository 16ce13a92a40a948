package cmdutil

import (
	"testing"

	"github.com/roster-cli/roster/failure"
)

// Rule (docs/exit-codes.md): a pipeline failure's class alone decides its
// exit code: unexpected 1, usage 2, refused 3, incomplete 4, unverified 6,
// interrupted 130.
func TestAFailureClassMapsToItsDocumentedExitCode(t *testing.T) {
	want := map[failure.Class]int{failure.Unexpected: 1, failure.Usage: 2, failure.Refused: 3, failure.Incomplete: 4, failure.Unverified: 6, failure.Interrupted: 130}
	for c, code := range want {
		if got := ExitCode(c); got != code {
			t.Errorf("ExitCode(%s) = %d, want %d", c, got, code)
		}
	}
	ee := FailureError(&failure.Failure{Class: failure.Refused, Code: "conflict", Msg: "another write came first", Details: map[string]any{"relay": "wss://a"}})
	if ee.Code != 3 || ee.Kind != "conflict" || ee.Err.Error() != "another write came first" || ee.Details["relay"] != "wss://a" {
		t.Fatalf("FailureError = %+v", ee)
	}
}
