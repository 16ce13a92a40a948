package failure_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/roster-cli/roster/failure"
)

// a pipeline's own failure type, as membership and statepub have: the one
// failure type embedded, plus the pipeline's facts.
type published struct {
	failure.Failure
	Relays []string
}

// Rule: one failure type serves every pipeline: Of finds it however the
// pipeline wrapped it, embedded in its own type or plain, and nothing
// else is taken for one.
func TestOfFindsTheOneFailureTypeEmbeddedOrPlain(t *testing.T) {
	p := &published{Failure: failure.Failure{Class: failure.Unverified, Code: "unverified", Msg: "published, not verified"}, Relays: []string{"wss://a"}}
	got := failure.Of(fmt.Errorf("wrapped: %w", p))
	if got == nil || got.Code != "unverified" || got.Class != failure.Unverified || got.Error() != "published, not verified" {
		t.Fatalf("Of(embedded) = %+v", got)
	}
	got.Msg = "changed"
	if p.Msg != "changed" {
		t.Fatal("Of returned a copy of the embedded failure, not the failure itself")
	}
	plain := &failure.Failure{Class: failure.Refused, Code: "conflict"}
	if failure.Of(plain) != plain {
		t.Fatal("Of(plain) is not the failure itself")
	}
	if failure.Of(errors.New("other")) != nil || failure.Of(nil) != nil {
		t.Fatal("Of found a failure where there is none")
	}
	se := failure.Signed(errors.New("locked"))
	var s *failure.SignerError
	if !errors.As(se, &s) || failure.Of(se) != nil || failure.Signed(nil) != nil {
		t.Fatalf("Signed: %v", se)
	}
}

// Rule: every class has its own name, as docs/exit-codes.md words it.
func TestEveryClassIsNamed(t *testing.T) {
	seen := map[string]bool{}
	for c := failure.Unexpected; c <= failure.Interrupted; c++ {
		if seen[c.String()] {
			t.Errorf("class %d repeats the name %q", c, c.String())
		}
		seen[c.String()] = true
	}
}
