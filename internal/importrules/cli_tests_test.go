package importrules

import (
	"strings"
	"testing"
)

// Rule (docs/architecture.md, "Import direction"; a one-file change in one
// command rebuilds only that command's tests): a noun's tests import the
// noun, the harness (internal/clitest), the bottom layers and the root, never
// another noun or the whole command list. roster repo's packages' tests
// run roster repo's tree (repo/tree); pending's run the whole list, because
// resuming is every noun's write.
func TestANounsTestsBuildWithoutTheOtherNouns(t *testing.T) {
	_, tests := imports(t)
	const cli = "internal/cli/"
	checked := 0
	for pkg, imps := range tests {
		noun, ok := strings.CutPrefix(pkg, cli)
		if !ok || noun == "pending" || noun == "importrules" {
			continue
		}
		checked++
		for _, p := range imps {
			rel, mine := internal(p)
			to, ok := strings.CutPrefix(rel, cli)
			if !mine || !ok {
				continue
			}
			if why := testImportViolation(noun, to); why != "" {
				t.Errorf("the tests of %s import %s: %s", pkg, rel, why)
			}
		}
	}
	if checked < 10 {
		t.Fatalf("only %d command-tree packages with tests: the walk is broken", checked)
	}
}

// testImportViolation says why the tests of noun may not import to ("" when
// they may); both are relative to internal/cli.
func testImportViolation(noun, to string) string {
	switch {
	case to == noun, to == "cmdutil", to == "render", to == "root":
		return ""
	case to == "commands":
		return "the whole command list builds every noun: give clitest.Main a tree of this noun's commands"
	case (noun == "repo" || strings.HasPrefix(noun, "repo/")) && (to == "repo" || strings.HasPrefix(to, "repo/")):
		return "" // roster repo's tree is one command group
	case noun == "hooks" && (to == "repo" || to == "repo/tree"):
		return "" // the pre-push guard's tests read the repository as roster repo does
	}
	return "one noun's tests do not build another noun"
}

// The rule's own cases, so a loosened switch is caught.
func TestTestImportViolationCases(t *testing.T) {
	for _, c := range []struct {
		noun, to string
		ok       bool
	}{
		{"project", "project", true}, {"project", "root", true},
		{"project", "group", false}, {"group", "commands", false}, {"repo/change", "repo/tree", true},
		{"repo", "workspace", false}, {"hooks", "repo/tree", true}, {"account", "cache", false},
	} {
		if got := testImportViolation(c.noun, c.to) == ""; got != c.ok {
			t.Errorf("%s tests -> %s allowed=%v, want %v", c.noun, c.to, got, c.ok)
		}
	}
}

// Rule: the end-to-end tests' harness runs the tree a test package gives
// it and imports no noun (of the command line, only cmdutil, render and
// root), or every noun's tests would build every noun.
func TestTheHarnessImportsNoNoun(t *testing.T) {
	prod, _ := imports(t)
	imps, ok := prod["internal/clitest"]
	if !ok {
		t.Fatal("internal/clitest not found: the walk is broken")
	}
	for _, p := range imps {
		rel, mine := internal(p)
		to, ok := strings.CutPrefix(rel, "internal/cli/")
		if !mine || !ok {
			continue
		}
		if to != "cmdutil" && to != "render" && to != "root" {
			t.Errorf("internal/clitest imports %s: the harness is given a tree (clitest.Main), it builds no noun", rel)
		}
	}
}
