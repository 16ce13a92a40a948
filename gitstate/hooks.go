package gitstate

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// HooksDir is where Git looks for this checkout's hooks.
type HooksDir struct {
	// Path is the absolute hooks directory; it may not exist yet.
	Path string
	// HooksPath is git config core.hooksPath as configured (any scope,
	// includes honoured), or "" when it is unset and Path is the Git
	// directory's hooks/.
	HooksPath string
}

// HooksDir asks git where hooks run from: `git rev-parse --git-path hooks`,
// which honours core.hooksPath (relative to the work tree, `~` expanded) and
// linked worktrees, from the work-tree root as Git runs hooks.
func (c *Checkout) HooksDir() (HooksDir, error) {
	need := "finding the checkout's hooks directory (core.hooksPath)"
	out, err := runGit(c.dir, need, "rev-parse", "--git-path", "hooks")
	if err != nil {
		return HooksDir{}, err
	}
	p := strings.TrimSpace(string(out))
	if p == "" {
		return HooksDir{}, fmt.Errorf("git rev-parse --git-path hooks in %s printed nothing", c.dir)
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(c.dir, p)
	}
	d := HooksDir{Path: filepath.Clean(p)}
	cfg, err := runGit(c.dir, need, "config", "--get", "core.hooksPath")
	var ge *GitCommandError
	switch {
	case errors.As(err, &ge) && ge.exitCode() == 1:
		// unset
	case err != nil:
		return HooksDir{}, err
	default:
		d.HooksPath = strings.TrimSpace(string(cfg))
	}
	return d, nil
}

// IsAncestor reports whether commit ancestor is reachable from descendant
// (`git merge-base --is-ancestor`; a commit is its own ancestor; tags are
// peeled). An ancestor object this repository does not have cannot be
// reachable from one it has, so that is false, not an error, unless the
// repository is shallow: then history may stop short of it and the answer
// is unknown (an error).
func (c *Checkout) IsAncestor(ancestor, descendant string) (bool, error) {
	need := "checking that the pushed commits descend from the repository state"
	_, err := runGit(c.dir, need, "merge-base", "--is-ancestor", ancestor, descendant)
	var ge *GitCommandError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &ge) && ge.exitCode() == 1:
		return false, nil
	case !errors.As(err, &ge):
		return false, err
	}
	// 128: an object is missing or is not a commit.
	if _, cerr := runGit(c.dir, need, "cat-file", "-e", descendant+"^{commit}"); cerr != nil {
		return false, err // the pushed commit itself cannot be read: unknown
	}
	if _, cerr := runGit(c.dir, need, "cat-file", "-e", ancestor); cerr == nil {
		return false, err // both exist, yet git could not compare them
	}
	if _, serr := os.Stat(filepath.Join(c.commonDir, "shallow")); serr == nil {
		return false, fmt.Errorf("%s is not in this shallow clone, so whether %s descends from it is unknown: run `git fetch --unshallow`", ancestor, descendant)
	}
	return false, nil
}
