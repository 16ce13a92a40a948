package gitstate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// RefsError says the checkout's refs cannot be read completely: a file of
// the ref store is malformed or points nowhere. go-git and git both skip
// such refs (or stop), so a list read anyway would be partial; LocalRefs
// returns this error instead.
type RefsError struct {
	// Path is the file, relative to the checkout when inside it
	// (".git/packed-refs", ".git/refs/heads/x").
	Path string
	// Line is the 1-based line of Path, or 0.
	Line int
	// Problem says what is wrong with it; Fix the command or edit that
	// repairs it.
	Problem, Fix string
}

func (e *RefsError) Error() string {
	where := e.Path
	if e.Line > 0 {
		where = fmt.Sprintf("%s line %d", e.Path, e.Line)
	}
	return fmt.Sprintf("cannot read the checkout's refs: %s %s; %s", where, e.Problem, e.Fix)
}

// checkRefFiles reads the files backend of the ref store the way git does
// and returns a *RefsError for the first thing that would make a ref list
// partial: a malformed packed-refs line, or a loose branch or tag that is a
// dangling symbolic link, a symbolic ref to a missing ref, or neither an
// object id nor a symbolic ref. A reftable repository has no such files;
// git reads it and reports its own errors.
func (c *Checkout) checkRefFiles() error {
	if _, err := os.Stat(filepath.Join(c.commonDir, "reftable")); err == nil {
		return nil
	}
	packed, err := c.checkPackedRefs()
	if err != nil {
		return err
	}
	for _, top := range []string{"refs/heads", "refs/tags"} {
		root := filepath.Join(c.commonDir, filepath.FromSlash(top))
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return &RefsError{Path: c.display(p), Problem: fmt.Sprintf("cannot be read (%v)", err), Fix: "fix its permissions so your user can read it"}
			}
			if d.IsDir() || strings.HasSuffix(p, ".lock") {
				return nil
			}
			rel, _ := filepath.Rel(c.commonDir, p)
			return c.checkLooseRef(p, filepath.ToSlash(rel), packed)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// checkLooseRef checks one loose ref file, name being its ref name.
func (c *Checkout) checkLooseRef(p, name string, packed map[string]bool) error {
	deleteIt := fmt.Sprintf("delete it with `git update-ref --no-deref -d %s`", name)
	if fi, err := os.Lstat(p); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			target, _ := os.Readlink(p)
			return &RefsError{Path: c.display(p), Problem: fmt.Sprintf("is a symbolic link to %s, which does not exist", target), Fix: deleteIt}
		}
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return &RefsError{Path: c.display(p), Problem: fmt.Sprintf("cannot be read (%v)", err), Fix: "fix its permissions so your user can read it, or " + deleteIt}
	}
	content := strings.TrimSpace(string(b))
	if c.isHex(content) {
		return nil
	}
	if target, ok := strings.CutPrefix(content, "ref:"); ok {
		target = strings.TrimSpace(target)
		if c.refExists(target, packed, 0) {
			return nil
		}
		return &RefsError{Path: c.display(p), Problem: fmt.Sprintf("is a dangling symbolic ref: %s -> %s, which does not exist", name, target),
			Fix: deleteIt + ", or point it at a branch with `git symbolic-ref " + name + " refs/heads/<branch>`"}
	}
	problem := fmt.Sprintf("holds neither an object id nor \"ref: <refname>\" (%q)", shorten(content))
	if content == "" {
		problem = "is empty"
	}
	return &RefsError{Path: c.display(p), Problem: problem,
		Fix: fmt.Sprintf("git cannot delete a broken ref, so remove the file (`rm %s`) or write the commit it should name into it (`git rev-parse <commit> > %s`)", c.display(p), c.display(p))}
}

// refExists reports whether a symbolic ref's target resolves, following
// further symbolic refs a few levels deep as git does.
func (c *Checkout) refExists(name string, packed map[string]bool, depth int) bool {
	if depth > 5 || !strings.HasPrefix(name, "refs/") {
		return false
	}
	for _, dir := range []string{c.commonDir, c.gitDir} {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			continue
		}
		content := strings.TrimSpace(string(b))
		if target, ok := strings.CutPrefix(content, "ref:"); ok {
			return c.refExists(strings.TrimSpace(target), packed, depth+1)
		}
		return c.isHex(content)
	}
	return packed[name]
}

// checkPackedRefs parses packed-refs as git does (an optional "# pack-refs
// with:" header, then "<oid> <refname>" lines, each optionally followed by
// one "^<oid>" peeled line) and returns the names it holds.
func (c *Checkout) checkPackedRefs() (map[string]bool, error) {
	p := filepath.Join(c.commonDir, "packed-refs")
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &RefsError{Path: c.display(p), Problem: fmt.Sprintf("cannot be read (%v)", err), Fix: "fix its permissions so your user can read it"}
	}
	names := map[string]bool{}
	text := strings.TrimSuffix(string(b), "\n")
	if text == "" {
		return names, nil
	}
	afterRef := false
	for i, line := range strings.Split(text, "\n") {
		ok := false
		switch {
		case i == 0 && strings.HasPrefix(line, "# pack-refs with:"):
			continue
		case strings.HasPrefix(line, "^"):
			ok = afterRef && c.isHex(line[1:])
			afterRef = false
		default:
			oid, name, found := strings.Cut(line, " ")
			ok = found && c.isHex(oid) && validRefName(name)
			if ok {
				names[name] = true
			}
			afterRef = ok
		}
		if !ok {
			return nil, &RefsError{Path: c.display(p), Line: i + 1,
				Problem: fmt.Sprintf("is malformed (%q; each line is \"<object-id> <refname>\", or \"^<object-id>\" peeling the line above)", shorten(line)),
				Fix:     "git cannot read the file either: correct or remove that line, then check with `git for-each-ref`"}
		}
	}
	return names, nil
}

// isHex reports whether s is an object id of the checkout's object format.
func (c *Checkout) isHex(s string) bool {
	want := 40
	if c.objectFormat == "sha256" {
		want = 64
	}
	if len(s) != want {
		return false
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if !(ch >= '0' && ch <= '9' || ch >= 'a' && ch <= 'f' || ch >= 'A' && ch <= 'F') {
			return false
		}
	}
	return true
}

// validRefName is git's check-ref-format for a full ref name, in short.
func validRefName(name string) bool {
	if !strings.HasPrefix(name, "refs/") || strings.HasSuffix(name, "/") || strings.HasSuffix(name, ".") ||
		strings.HasSuffix(name, ".lock") || strings.Contains(name, "..") || strings.Contains(name, "//") ||
		strings.Contains(name, "@{") || strings.Contains(name, "/.") {
		return false
	}
	for i := 0; i < len(name); i++ {
		if ch := name[i]; ch < 0x20 || ch == 0x7f || strings.IndexByte(" ~^:?*[\\", ch) >= 0 {
			return false
		}
	}
	return true
}

func shorten(s string) string {
	if len(s) > 90 {
		return s[:87] + "..."
	}
	return s
}
