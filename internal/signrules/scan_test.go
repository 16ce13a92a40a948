package signrules

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// site is one place that signs: the file (relative to the module root,
// slash-separated) and the function it is in ("Type.Method" for a method,
// "" at package level).
type site struct{ File, Func string }

// moduleRoot is the module's root directory.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found from %s: %v", root, err)
	}
	return root
}

// parsed is every non-test Go file of the module, parsed.
func parsed(t *testing.T) (map[string]*ast.File, *token.FileSet) {
	t.Helper()
	root := moduleRoot(t)
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "testdata") {
				return filepath.SkipDir
			}
			// The end-to-end harness is test code in a package of its own
			// (only tests import it: internal/importrules): it signs the
			// tests' fixtures, never for a user.
			if rel, _ := filepath.Rel(root, path); filepath.ToSlash(rel) == "internal/clitest" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		files[filepath.ToSlash(rel)] = f
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files, fset
}

// funcName is a declaration's name as a site names it.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	typ := fd.Recv.List[0].Type
	if s, ok := typ.(*ast.StarExpr); ok {
		typ = s.X
	}
	if g, ok := typ.(*ast.IndexExpr); ok {
		typ = g.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// signs reports whether n signs an event: any use of a selector named
// SignEvent (a call, or the method taken as a function value), or a call
// X.Sign(…) with arguments (nostr.Event.Sign(sk), a Sign(ctx, evt)
// function field); big.Int's Sign() takes none.
func signs(n ast.Node) bool {
	switch x := n.(type) {
	case *ast.SelectorExpr:
		return x.Sel.Name == "SignEvent"
	case *ast.CallExpr:
		sel, ok := x.Fun.(*ast.SelectorExpr)
		return ok && sel.Sel.Name == "Sign" && len(x.Args) > 0
	}
	return false
}

// signingSites are the sites of the module's non-test code that sign, with
// how many times each signs.
func signingSites(files map[string]*ast.File) map[site]int {
	out := map[site]int{}
	for rel, f := range files {
		for _, d := range f.Decls {
			name := ""
			if fd, ok := d.(*ast.FuncDecl); ok {
				name = funcName(fd)
			}
			ast.Inspect(d, func(n ast.Node) bool {
				if n != nil && signs(n) {
					out[site{rel, name}]++
				}
				return true
			})
		}
	}
	return out
}

// calls reports whether the function fn of file rel calls callee: "pkg.Name"
// (track.Begin: a call of Name on the identifier pkg) or ".Name" (a method
// or field call of Name on any receiver, p.journalBegin).
func calls(files map[string]*ast.File, rel, fn, callee string) bool {
	pkg, name, _ := strings.Cut(callee, ".")
	f := files[rel]
	if f == nil {
		return false
	}
	found := false
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || funcName(fd) != fn {
			continue
		}
		ast.Inspect(fd, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				if id, ok := c.Fun.(*ast.Ident); ok && !strings.Contains(callee, ".") && id.Name == callee {
					found = true
				}
				if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == name {
					if id, ok := sel.X.(*ast.Ident); pkg == "" || ok && id.Name == pkg {
						found = true
					}
				}
			}
			return !found
		})
	}
	return found
}
