package errorcodes

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// kebab is the shape of every machine code: lowercase words joined by '-'.
var kebab = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

// codesInSource finds the codes the way the code writes them: a constant
// whose name starts with Code (graph.CodeFollowLead, pipeline.CodeConflict,
// statepub.CodePublishFailed), a composite literal's Code or Kind field set
// to a string (exitError{Kind: ...}, pipeline.Error{Code: ...}), and the
// first argument of preflight's refuse(...). It returns each code with the
// first place that writes it.
func codesInSource(t *testing.T, root string) map[string]string {
	t.Helper()
	found := map[string]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "node_modules" || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		add := func(e ast.Expr) {
			bl, ok := e.(*ast.BasicLit)
			if !ok || bl.Kind != token.STRING {
				return
			}
			s, _ := strconv.Unquote(bl.Value)
			if kebab.MatchString(s) {
				if _, seen := found[s]; !seen {
					found[s] = rel + ":" + strconv.Itoa(fset.Position(bl.Pos()).Line)
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.ValueSpec:
				for i, name := range x.Names {
					if strings.HasPrefix(name.Name, "Code") && i < len(x.Values) {
						add(x.Values[i])
					}
				}
			case *ast.KeyValueExpr:
				if k, ok := x.Key.(*ast.Ident); ok && (k.Name == "Kind" || k.Name == "Code") {
					add(x.Value)
				}
			case *ast.CallExpr:
				if id, ok := x.Fun.(*ast.Ident); ok && id.Name == "refuse" && len(x.Args) > 0 {
					add(x.Args[0])
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// Rule (docs/exit-codes.md "Error codes": the code is stable and scripts
// branch on it): every code the program can print is documented, written
// as `code`, on a page of docs/ (exit-codes.md, or the page of its
// command: membership.md's refusals, workspaces.md, projects.md,
// groups.md, usage.md's health findings).
func TestEveryErrorCodeIsDocumented(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no docs/*.md under %s (%v)", root, err)
	}
	var docs strings.Builder
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		docs.Write(b)
	}
	codes := codesInSource(t, root)
	if len(codes) < 50 {
		t.Fatalf("found only %d codes in the source: the walk is broken", len(codes))
	}
	var missing []string
	for code, where := range codes {
		if !strings.Contains(docs.String(), "`"+code+"`") {
			missing = append(missing, code+" ("+where+")")
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("error code %s is documented on no page of docs/: add it to docs/exit-codes.md or its command's page", m)
	}
}
