package importrules

import (
	"strings"
	"testing"
)

// Rule (docs/architecture.md, "Import direction"): inside the command tree,
// cmdutil imports no other internal/cli package, render imports only
// cmdutil, root (which runs a tree) only those and help, no noun imports
// root or commands, repo imports none of its subpackages, and only commands
// (the command list, which main runs) imports the noun packages it
// assembles, except that a repo subpackage or hooks may import repo,
// repo/tree the repo subpackages it adds to roster repo, and repo/change
// hooks (an accepted change tells the pre-push guard to fetch afresh).
func TestTheCommandTreeIsLayered(t *testing.T) {
	prod, _ := imports(t)
	const cli = "internal/cli/"
	for pkg, imps := range prod {
		if !strings.HasPrefix(pkg, cli) {
			continue
		}
		for _, p := range imps {
			rel, mine := internal(p)
			if !mine || !strings.HasPrefix(rel, cli) {
				continue
			}
			if why := layerViolation(strings.TrimPrefix(pkg, cli), strings.TrimPrefix(rel, cli)); why != "" {
				t.Errorf("%s imports %s: %s", pkg, rel, why)
			}
		}
	}
	if len(prod["internal/cli/commands"]) == 0 {
		t.Fatal("internal/cli/commands not found: the walk is broken")
	}
}

// layerViolation says why from may not import to ("" when it may); both
// are relative to internal/cli.
func layerViolation(from, to string) string {
	switch {
	case from == "cmdutil":
		return "cmdutil is the bottom layer of the command tree"
	case from == "render" && to != "cmdutil":
		return "render imports only cmdutil"
	case to == "commands":
		return "only main imports the command list"
	case to == "root" && from == "commands":
		return ""
	case to == "root":
		return "only main, the command list and the tests' harness (internal/clitest) import root"
	case to == "cmdutil" || to == "render":
		return ""
	case from == "root" && to == "help":
		return "" // the root carries the help command and --version
	case from == "root":
		return "a tree is run without knowing its nouns; only commands assembles them"
	case from == "commands":
		return ""
	case from == "repo/tree" && strings.HasPrefix(to, "repo"):
		return ""
	case to == "repo" && (strings.HasPrefix(from, "repo/") || from == "hooks"):
		return ""
	case from == "repo/change" && to == "hooks":
		return "" // a confirmation records what the pre-push guard must check
	case from == "repo" && strings.HasPrefix(to, "repo/"):
		return "repo imports none of its subpackages (root adds them to the repo command)"
	}
	return "one noun does not import another; move what both need to cmdutil or render"
}

// The rule's own cases, so a loosened switch is caught.
func TestLayerViolationCases(t *testing.T) {
	for _, c := range []struct {
		from, to string
		ok       bool
	}{
		{"repo", "cmdutil", true}, {"repo/change", "repo", true}, {"hooks", "repo", true},
		{"commands", "group", true}, {"root", "group", false}, {"root", "help", true},
		{"group", "commands", false}, {"repo/tree", "repo/change", true},
		{"repo/change", "hooks", true}, {"hooks", "repo/change", false}, {"render", "cmdutil", true},
		{"cmdutil", "render", false}, {"render", "repo", false}, {"repo", "repo/change", false},
		{"group", "project", false}, {"workspace", "root", false},
	} {
		if got := layerViolation(c.from, c.to) == ""; got != c.ok {
			t.Errorf("%s -> %s allowed=%v, want %v", c.from, c.to, got, c.ok)
		}
	}
}
