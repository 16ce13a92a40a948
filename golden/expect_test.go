package golden

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
)

// recorded is every golden runner's last step: with -update it stores got
// as the scenario's expectation (expect points into doc) and rewrites file;
// otherwise got must equal the recorded expectation. what names the result
// and run the test to rerun, in the messages.
func recorded(t *testing.T, file string, doc any, expect *json.RawMessage, got []byte, what, run string) {
	t.Helper()
	if *update {
		*expect = json.RawMessage(got)
		b, err := Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if len(*expect) == 0 {
		t.Fatalf("no recorded expectation; run go test ./golden %s-update and review the diff", run)
	}
	want, err := Marshal(json.RawMessage(*expect))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(bytes.TrimSpace(want), bytes.TrimSpace(got)) {
		t.Errorf("%s differs from the recorded expectation (go test ./golden %s-update, then review):\n--- want\n%s\n--- got\n%s", what, run, want, got)
	}
}
