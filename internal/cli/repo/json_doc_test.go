package repo_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
)

// docsRepoExample returns the ```json example of the `roster repo --json`
// section of docs/json.md and the section's text.
func docsRepoExample(t *testing.T) (example []byte, section string) {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "json.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "## `roster repo --json`: `roster.repo/v2`")
	if !ok {
		t.Fatal("docs/json.md has no `roster repo --json` section")
	}
	section, _, _ = strings.Cut(rest, "\n## ")
	_, block, ok := strings.Cut(section, "```json\n")
	if !ok {
		t.Fatal("the `roster repo --json` section has no json example")
	}
	block, _, _ = strings.Cut(block, "```")
	return []byte(block), section
}

// Rule (`roster repo --json` prints exactly the roster.repo/v2 shape
// documented in docs/json.md). The documented example has the
// printed object's keys in the printed order, its nested objects the
// printed nested keys, and every top-level key has a row in the field table.
func TestDocsJSONRepoExampleMatchesThePrintedShape(t *testing.T) {
	t.Parallel()
	example, section := docsRepoExample(t)
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(example, &doc); err != nil {
		t.Fatalf("the documented example is not JSON: %v\n%s", err, example)
	}
	var buf bytes.Buffer
	if err := cmdutil.EncodeJSON(&buf, sampleReport()); err != nil {
		t.Fatal(err)
	}
	var out map[string]json.RawMessage
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	docKeys, outKeys := topLevelKeys(t, example), topLevelKeys(t, buf.Bytes())
	if strings.Join(docKeys, ",") != strings.Join(outKeys, ",") {
		t.Fatalf("docs/json.md example keys\n %v\nprinted\n %v", docKeys, outKeys)
	}
	for _, k := range outKeys {
		if !strings.Contains(section, "| `"+k+"` |") {
			t.Errorf("docs/json.md has no table row for %q", k)
		}
	}
	first := func(raw json.RawMessage) json.RawMessage {
		var list []json.RawMessage
		if err := json.Unmarshal(raw, &list); err == nil {
			if len(list) == 0 {
				return nil
			}
			return list[0]
		}
		return raw
	}
	for _, k := range []string{"coordinate", "maintainers", "lifecycle", "state", "relays"} {
		d, o := first(doc[k]), first(out[k])
		if d == nil || o == nil {
			t.Fatalf("%s: nothing to compare (doc %s, printed %s)", k, doc[k], out[k])
		}
		if dk, ok := strings.Join(topLevelKeys(t, d), ","), strings.Join(topLevelKeys(t, o), ","); dk != ok {
			t.Errorf("%s keys: docs/json.md %s, printed %s", k, dk, ok)
		}
	}
}
