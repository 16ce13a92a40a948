package importrules

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/roster-cli/roster"

// imports maps each package of the module (by path relative to the module
// root, "graph", "workspace/groups", "cmd/roster") to the imports of its
// non-test files, and, separately, to those of its test files.
func imports(t *testing.T) (prod, tests map[string][]string) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found from %s: %v", root, err)
	}
	prod, tests = map[string][]string{}, map[string][]string{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		into := prod
		if strings.HasSuffix(path, "_test.go") {
			into = tests
		}
		for _, spec := range f.Imports {
			p, _ := strconv.Unquote(spec.Path.Value)
			if !slices.Contains(into[rel], p) {
				into[rel] = append(into[rel], p)
			}
		}
		if _, ok := into[rel]; !ok {
			into[rel] = nil
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return prod, tests
}

// internal turns a module import path into its relative form ("graph"),
// and reports whether it is the module's at all.
func internal(p string) (string, bool) {
	if p == module {
		return "", true
	}
	rel, ok := strings.CutPrefix(p, module+"/")
	return rel, ok
}

// isStdlib: the standard library's paths have no dot in their first element.
func isStdlib(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return !strings.Contains(first, ".")
}

// Rule (docs/architecture.md "Import direction"): the pure core imports
// only what the document lists: graph the standard library, go-nostr and
// suggest; actions also graph; preflight also actions; suggest, termtext,
// relaypool/verified, strictjson and channelid nothing of the module's.
func TestThePureCoreImportsOnlyWhatTheArchitectureAllows(t *testing.T) {
	prod, _ := imports(t)
	allowed := map[string][]string{
		"suggest":              {},
		"termtext":             {},
		"relaypool/verified":   {},
		"workspace/strictjson": {},
		"workspace/channelid":  {},
		"workspace/pending":    {"journal"},
		"journal":              {},
		"failure":              {"suggest"},
		"graph":                {"suggest"},
		"actions":              {"graph"},
		"preflight":            {"graph", "actions", "suggest", "failure"},
		"hooks":                {"graph", "suggest", "termtext"},
	}
	external := map[string][]string{
		"graph":     {"github.com/nbd-wtf/go-nostr"},
		"actions":   {"github.com/nbd-wtf/go-nostr"},
		"preflight": {"github.com/nbd-wtf/go-nostr"},
	}
	for pkg, ok := range allowed {
		imps, found := prod[pkg]
		if !found {
			t.Errorf("package %s is gone: update this test and docs/architecture.md together", pkg)
			continue
		}
		for _, p := range imps {
			if rel, mine := internal(p); mine {
				if !slices.Contains(ok, rel) {
					t.Errorf("%s imports %s: docs/architecture.md allows it only %v", pkg, rel, ok)
				}
				continue
			}
			if isStdlib(p) {
				continue
			}
			if ext, listed := external[pkg]; listed && slices.ContainsFunc(ext, func(e string) bool { return p == e || strings.HasPrefix(p, e+"/") }) {
				continue
			}
			if _, listed := external[pkg]; listed || pkg == "suggest" || pkg == "termtext" || pkg == "workspace/strictjson" || pkg == "workspace/channelid" {
				t.Errorf("%s imports %s, outside the standard library and what docs/architecture.md lists", pkg, p)
			}
		}
	}
}

// Rule: a dependency with one job lives behind one package: go-git only
// in gitstate, bbolt only in cache, gojq only in internal/jsonout, khatru
// and its event store only in devrelay, cobra and pflag only in the
// command tree.
func TestEachHeavyDependencyIsImportedByItsOnePackage(t *testing.T) {
	prod, _ := imports(t)
	owners := map[string]func(pkg string) bool{
		"github.com/go-git/go-git":      func(p string) bool { return p == "gitstate" },
		"go.etcd.io/bbolt":              func(p string) bool { return p == "cache" },
		"github.com/itchyny/gojq":       func(p string) bool { return p == "internal/jsonout" },
		"github.com/fiatjaf/khatru":     func(p string) bool { return p == "devrelay" || strings.HasPrefix(p, "devrelay/") },
		"github.com/fiatjaf/eventstore": func(p string) bool { return p == "devrelay" || strings.HasPrefix(p, "devrelay/") },
		"github.com/spf13/cobra":        commandTree,
		"github.com/spf13/pflag":        commandTree,
	}
	for pkg, imps := range prod {
		for _, p := range imps {
			for dep, may := range owners {
				if (p == dep || strings.HasPrefix(p, dep+"/")) && !may(pkg) {
					t.Errorf("%s imports %s, which docs/architecture.md keeps to one package", pkg, p)
				}
			}
		}
	}
}

// commandTree: the packages of the command line (cmd/roster and, as it is
// split by noun, internal/cli/...), and internal/clitest, its end-to-end
// tests' harness.
func commandTree(pkg string) bool {
	return strings.HasPrefix(pkg, "cmd/") || pkg == "internal/cli" || strings.HasPrefix(pkg, "internal/cli/") || pkg == "internal/clitest"
}

// Rule: imports point from the edge to the core, never back: no package
// outside the command tree imports it; the client packages never import
// devrelay (only tests and `roster dev relay` do, and devrelay's own
// authorities); workspace packages never import preflight, gitstate or
// the repository pipelines; cache imports the proof relaypool/verified,
// not relaypool.
func TestImportsPointFromTheEdgeToTheCore(t *testing.T) {
	prod, _ := imports(t)
	for pkg, imps := range prod {
		for _, p := range imps {
			rel, mine := internal(p)
			if !mine {
				continue
			}
			switch {
			case commandTree(rel) && !commandTree(pkg):
				t.Errorf("%s imports the command tree (%s)", pkg, rel)
			case (rel == "devrelay" || strings.HasPrefix(rel, "devrelay/")) && !commandTree(pkg) && pkg != "devrelay" && !strings.HasPrefix(pkg, "devrelay/"):
				t.Errorf("%s imports %s: only the command tree, devrelay's authorities and tests may", pkg, rel)
			case strings.HasPrefix(pkg, "workspace/") && slices.Contains([]string{"preflight", "gitstate", "discovery", "membership", "statepub", "announce", "eventcheck"}, rel):
				t.Errorf("%s imports %s: workspace packages stay out of the repository half", pkg, rel)
			case pkg == "cache" && rel == "relaypool":
				t.Errorf("cache imports relaypool: it takes the proof (relaypool/verified) only")
			}
		}
	}
}

// Rule: the test helpers (named keys, the NIP-SW fixture, the relay
// client, write denial, the end-to-end harness) are imported only by tests
// and by one another.
func TestTestHelpersAreImportedOnlyByTests(t *testing.T) {
	prod, tests := imports(t)
	helpers := []string{"workspace/testkeys", "workspace/sections/sectionstest", "devrelay/relaytest", "internal/writedeny", "internal/clitest"}
	var users []string
	for pkg, imps := range prod {
		if slices.Contains(helpers, pkg) {
			continue
		}
		for _, p := range imps {
			if rel, mine := internal(p); mine && slices.Contains(helpers, rel) {
				t.Errorf("non-test code of %s imports the test helper %s", pkg, rel)
			}
		}
	}
	for pkg, imps := range tests {
		for _, p := range imps {
			if rel, mine := internal(p); mine && slices.Contains(helpers, rel) {
				users = append(users, pkg)
			}
		}
	}
	sort.Strings(users)
	if len(users) == 0 {
		t.Fatalf("no test imports any of %v: the walk found no test files", helpers)
	}
}
