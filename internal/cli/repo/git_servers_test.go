package repo_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/roster-cli/roster/internal/cli/render"
	"github.com/roster-cli/roster/internal/cli/repo"
)

// Rule (a Git server compared with the published state, ref by ref): a ref
// the server lacks is missing (behind-or-rewound), a branch only the
// server has is extra (ahead), neither containing the other is diverged,
// ahead and behind at once is diverged, an ancestry this checkout cannot
// tell is differs; refs outside refs/heads and refs/tags and peeled
// entries are not compared.
func TestCompareGitServerVerdicts(t *testing.T) {
	anc := map[[2]string]bool{{"s1", "v2"}: true, {"old", "s1"}: true}
	isAncestor := func(a, d string) (bool, error) {
		if a == "x" || d == "x" {
			return false, errors.New("not in this checkout")
		}
		return anc[[2]string{a, d}], nil
	}
	state := map[string]string{"refs/heads/main": "s1", "refs/tags/v1": "t1", "refs/tags/v1^{}": "s1"}
	for _, c := range []struct {
		name    string
		served  map[string]string
		verdict string
		refs    string
	}{
		{"matches", map[string]string{"HEAD": "s1", "refs/heads/main": "s1", "refs/tags/v1": "t1", "refs/pull/1/head": "zz"}, "matches", ""},
		{"ahead", map[string]string{"refs/heads/main": "v2", "refs/tags/v1": "t1"}, "ahead", "refs/heads/main ahead"},
		{"extra branch", map[string]string{"refs/heads/main": "s1", "refs/tags/v1": "t1", "refs/heads/feature": "f"}, "ahead", "refs/heads/feature extra"},
		{"rewound", map[string]string{"refs/heads/main": "old", "refs/tags/v1": "t1"}, "behind-or-rewound", "refs/heads/main behind"},
		{"missing tag", map[string]string{"refs/heads/main": "s1"}, "behind-or-rewound", "refs/tags/v1 missing"},
		{"diverged", map[string]string{"refs/heads/main": "side", "refs/tags/v1": "t1"}, "diverged", "refs/heads/main diverged"},
		{"ahead and behind", map[string]string{"refs/heads/main": "v2"}, "diverged", "refs/heads/main ahead, refs/tags/v1 missing"},
		{"unknown", map[string]string{"refs/heads/main": "x", "refs/tags/v1": "t1"}, "differs", "refs/heads/main unknown"},
	} {
		s := repo.CompareGitServer("file:///srv", state, c.served, isAncestor)
		if s.Verdict != c.verdict || repo.RefList(s.Refs) != c.refs {
			t.Errorf("%s: %s (%s), want %s (%s)", c.name, s.Verdict, repo.RefList(s.Refs), c.verdict, c.refs)
		}
		if (s.Command == nil) != (c.verdict == "matches") {
			t.Errorf("%s: command %v", c.name, s.Command)
		}
	}
	// Outside a checkout main's direction is unknown; the missing tag
	// still makes the server behind.
	if s := repo.CompareGitServer("u", state, map[string]string{"refs/heads/main": "v2"}, nil); s.Verdict != "behind-or-rewound" || repo.RefList(s.Refs) != "refs/heads/main unknown, refs/tags/v1 missing" {
		t.Errorf("no checkout: %s (%s)", s.Verdict, repo.RefList(s.Refs))
	}
}

// Rule (the job summary cannot be formatted by what events say): Markdown
// and HTML syntax in a name or message is escaped, and a code span cannot
// be closed early or end a table cell.
func TestMarkdownTextEscapesMarkup(t *testing.T) {
	got := render.MdText("[click](https://evil.example) <img src=x> **bold** | cell")
	// Drop every backslash escape: what is left must hold no markup.
	var bare strings.Builder
	for i := 0; i < len(got); i++ {
		if got[i] == '\\' && i+1 < len(got) {
			i++
			continue
		}
		bare.WriteByte(got[i])
	}
	if strings.ContainsAny(bare.String(), "[]()<>*|") {
		t.Fatalf("mdText left markup unescaped: %q", got)
	}
	if c := render.MdCode("a`b|c\nd"); strings.Count(c, "`") != 2 || strings.Contains(c, "b|") || strings.Contains(c, "\n") {
		t.Fatalf("mdCode: %q", c)
	}
}
