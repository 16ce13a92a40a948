package gitstate

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// ErrNoCommits is returned by RootCommit in a repository without commits.
var ErrNoCommits = errors.New("the checkout has no commits yet")

// ErrShallow is returned by RootCommit when history stops before the root.
var ErrShallow = errors.New("the checkout is a shallow clone, so its root commit is unknown")

// RootCommit returns the root commit reached from HEAD along first parents:
// the earliest unique commit NIP-34 puts in the announcement's `r <oid> euc`
// tag. Following first parents keeps the answer deterministic when unrelated
// histories were merged in.
func (c *Checkout) RootCommit() (string, error) {
	if c.repo == nil {
		return c.rootCommitViaGit()
	}
	head, err := c.repo.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return "", ErrNoCommits
	}
	if err != nil {
		return "", fmt.Errorf("read HEAD: %w", err)
	}
	commit := head.Hash()
	parents, err := c.repo.commitParents(commit)
	if err != nil {
		return "", fmt.Errorf("read HEAD commit %s: %w", commit, err)
	}
	for len(parents) > 0 {
		next, err := c.repo.commitParents(parents[0])
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			return "", shallowError(commit.String(), parents[0].String())
		}
		if err != nil {
			return "", fmt.Errorf("walk first parents: %w", err)
		}
		commit, parents = parents[0], next
	}
	return commit.String(), nil
}

func shallowError(commit, parent string) error {
	return fmt.Errorf("%w: commit %s's parent %s is not in this clone; run `git fetch --unshallow`", ErrShallow, commit, parent)
}

// rootCommitViaGit is RootCommit with the git command. git treats a shallow
// clone's boundary commits as parentless, so a root it finds that is listed
// in the shallow file is the boundary, not the root.
func (c *Checkout) rootCommitViaGit() (string, error) {
	head, err := runGit(c.dir, c.needGit(), "rev-parse", "--verify", "-q", "HEAD^{commit}")
	var ge *GitCommandError
	if errors.As(err, &ge) && ge.exitCode() == 1 {
		return "", ErrNoCommits
	}
	if err != nil {
		return "", fmt.Errorf("read HEAD: %w", err)
	}
	out, err := runGit(c.dir, c.needGit(), "rev-list", "--first-parent", "--max-parents=0", strings.TrimSpace(string(head)))
	if err != nil {
		return "", fmt.Errorf("walk first parents: %w", err)
	}
	roots := strings.Fields(string(out))
	if len(roots) != 1 {
		return "", fmt.Errorf("walk first parents: git rev-list found %d root commits", len(roots))
	}
	root := roots[0]
	shallow, err := os.ReadFile(filepath.Join(c.commonDir, "shallow"))
	if err != nil || !containsLine(shallow, root) {
		return root, nil
	}
	raw, err := runGit(c.dir, c.needGit(), "cat-file", "commit", root)
	if err != nil {
		return "", fmt.Errorf("read commit %s: %w", root, err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if parent, ok := strings.CutPrefix(line, "parent "); ok {
			return "", shallowError(root, parent)
		}
		if line == "" {
			break
		}
	}
	return root, nil
}

func containsLine(b []byte, want string) bool {
	s := bufio.NewScanner(bytes.NewReader(b))
	for s.Scan() {
		if strings.TrimSpace(s.Text()) == want {
			return true
		}
	}
	return false
}

// headBranch is the branch HEAD names ("refs/heads/main", born or not), or
// "" when HEAD is detached or names something else.
func (c *Checkout) headBranch() (string, error) {
	target, detached, err := c.head()
	if err != nil || detached || !strings.HasPrefix(target, "refs/heads/") {
		return "", err
	}
	return target, nil
}

// head reads HEAD without resolving it: the ref it names, or the object id
// when detached. ("", false, nil) when there is no HEAD.
func (c *Checkout) head() (value string, detached bool, err error) {
	if c.repo == nil {
		out, err := runGit(c.dir, c.needGit(), "symbolic-ref", "-q", "HEAD")
		if err == nil {
			return strings.TrimSpace(string(out)), false, nil
		}
		var ge *GitCommandError
		if !errors.As(err, &ge) || ge.exitCode() != 1 {
			return "", false, fmt.Errorf("read HEAD: %w", err)
		}
		out, err = runGit(c.dir, c.needGit(), "rev-parse", "--verify", "-q", "HEAD")
		if err != nil {
			return "", false, fmt.Errorf("read HEAD: %w", err)
		}
		return strings.TrimSpace(string(out)), true, nil
	}
	head, err := c.repo.Reference(plumbing.HEAD)
	switch {
	case errors.Is(err, plumbing.ErrReferenceNotFound):
		return "", false, nil
	case err != nil:
		return "", false, fmt.Errorf("read HEAD: %w", err)
	case head.Type() == plumbing.SymbolicReference:
		return head.Target().String(), false, nil
	default:
		return head.Hash().String(), true, nil
	}
}

// LocalRefs returns the checkout's refs in kind 30618 shape: refs/heads/*,
// refs/tags/* (annotated tags as the tag object plus "<name>^{}" for the
// peeled object) and HEAD as "ref: refs/heads/<branch>" when symbolic, else
// the detached oid. Symbolic refs under refs/heads and refs/tags are left
// out. A ref store that cannot be read completely (a malformed packed-refs
// line, a dangling symbolic link or symbolic ref, a loose ref holding
// garbage) is a *RefsError, never a partial map.
func (c *Checkout) LocalRefs() (map[string]string, error) {
	if err := c.checkRefFiles(); err != nil {
		return nil, err
	}
	var out map[string]string
	var err error
	if c.repo == nil {
		out, err = c.localRefsViaGit()
	} else {
		out, err = c.localRefsViaGoGit()
	}
	if err != nil {
		return nil, err
	}
	head, detached, err := c.head()
	switch {
	case err != nil:
		return nil, err
	case head == "":
	case detached:
		out["HEAD"] = head
	default:
		out["HEAD"] = "ref: " + head
	}
	return out, nil
}

func (c *Checkout) localRefsViaGoGit() (map[string]string, error) {
	out := map[string]string{}
	iter, err := c.repo.References()
	if err != nil {
		return nil, fmt.Errorf("list refs: %w", err)
	}
	defer iter.Close()
	err = iter.ForEach(func(r *plumbing.Reference) error {
		name := r.Name()
		if r.Type() != plumbing.HashReference || !(name.IsBranch() || name.IsTag()) {
			return nil
		}
		out[name.String()] = r.Hash().String()
		if name.IsTag() {
			if peeled, ok := c.peel(r.Hash()); ok {
				out[name.String()+"^{}"] = peeled
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list refs: %w", err)
	}
	return out, nil
}

// localRefsViaGit lists refs/heads and refs/tags with git for-each-ref.
// %(*objectname) peels one level; a tag of a tag is peeled fully with
// rev-parse, as peel does.
func (c *Checkout) localRefsViaGit() (map[string]string, error) {
	raw, err := runGit(c.dir, c.needGit(), "for-each-ref",
		"--format=%(refname)%00%(objectname)%00%(*objectname)%00%(*objecttype)%00%(symref)", "refs/heads", "refs/tags")
	if err != nil {
		return nil, fmt.Errorf("list refs: %w", err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		if line == "" {
			continue
		}
		f := strings.Split(line, "\x00")
		if len(f) != 5 {
			return nil, fmt.Errorf("list refs: unexpected `git for-each-ref` line %q", line)
		}
		name, oid, peeled, peeledType, symref := f[0], f[1], f[2], f[3], f[4]
		if symref != "" {
			continue
		}
		out[name] = oid
		if !strings.HasPrefix(name, "refs/tags/") || peeled == "" {
			continue
		}
		if peeledType == "tag" {
			full, err := runGit(c.dir, c.needGit(), "rev-parse", "--verify", "-q", peeled+"^{}")
			if err != nil {
				return nil, fmt.Errorf("peel %s: %w", name, err)
			}
			peeled = strings.TrimSpace(string(full))
		}
		out[name+"^{}"] = peeled
	}
	return out, nil
}

// peel follows annotated tag objects to the object they finally name. It
// reports false for a lightweight tag (nothing to peel).
func (c *Checkout) peel(h plumbing.Hash) (string, bool) {
	target, typ, err := c.repo.tagTarget(h)
	if err != nil {
		return "", false
	}
	for i := 0; i < 32; i++ { // bounded: tag chains are short; cycles are impossible but cheap to guard
		if typ != plumbing.TagObject {
			return target.String(), true
		}
		next, nextType, err := c.repo.tagTarget(target)
		if err != nil {
			return target.String(), true
		}
		target, typ = next, nextType
	}
	return target.String(), true
}
