package clitest

import (
	"encoding/json"
	"testing"
)

// MutationJSON decodes a roster.mutation/v2 object.
func MutationJSON(t *testing.T, r Result) (map[string]any, map[string]any) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Out), &m); err != nil {
		t.Fatalf("not JSON (exit %d): %v\n%s\n%s", r.Code, err, r.Out, r.Err)
	}
	e, _ := m["error"].(map[string]any)
	return m, e
}
