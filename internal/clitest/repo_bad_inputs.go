package clitest

import (
	"encoding/json"
	"testing"

	"github.com/roster-cli/roster/report"
)

// ErrorBody decodes a --json error object.
func ErrorBody(t *testing.T, r Result) report.ErrorBody {
	t.Helper()
	var body struct {
		Error report.ErrorBody `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.Out), &body); err != nil || body.Error.Code == "" {
		t.Fatalf("stdout is not a JSON error (%v): %q (stderr %q)", err, r.Out, r.Err)
	}
	return body.Error
}
