package gitstate

import (
	"errors"
	"fmt"

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
	head, err := c.repo.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return "", ErrNoCommits
	}
	if err != nil {
		return "", fmt.Errorf("read HEAD: %w", err)
	}
	commit, err := c.repo.CommitObject(head.Hash())
	if err != nil {
		return "", fmt.Errorf("read HEAD commit %s: %w", head.Hash(), err)
	}
	for commit.NumParents() > 0 {
		parent, err := commit.Parent(0)
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			return "", fmt.Errorf("%w: commit %s's parent %s is not in this clone; run `git fetch --unshallow`", ErrShallow, commit.Hash, commit.ParentHashes[0])
		}
		if err != nil {
			return "", fmt.Errorf("walk first parents: %w", err)
		}
		commit = parent
	}
	return commit.Hash.String(), nil
}

// LocalRefs returns the checkout's refs in kind 30618 shape: refs/heads/*,
// refs/tags/* (annotated tags as the tag object plus "<name>^{}" for the
// peeled object) and HEAD as "ref: refs/heads/<branch>" when symbolic, else
// the detached oid.
func (c *Checkout) LocalRefs() (map[string]string, error) {
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
	head, err := c.repo.Reference(plumbing.HEAD, false)
	switch {
	case err == nil && head.Type() == plumbing.SymbolicReference:
		out["HEAD"] = "ref: " + head.Target().String()
	case err == nil:
		out["HEAD"] = head.Hash().String()
	case !errors.Is(err, plumbing.ErrReferenceNotFound):
		return nil, fmt.Errorf("read HEAD: %w", err)
	}
	return out, nil
}

// peel follows annotated tag objects to the object they finally name. It
// reports false for a lightweight tag (nothing to peel).
func (c *Checkout) peel(h plumbing.Hash) (string, bool) {
	tag, err := c.repo.TagObject(h)
	if err != nil {
		return "", false
	}
	for i := 0; i < 32; i++ { // bounded: tag chains are short; cycles are impossible but cheap to guard
		if tag.TargetType != plumbing.TagObject {
			return tag.Target.String(), true
		}
		next, err := c.repo.TagObject(tag.Target)
		if err != nil {
			return tag.Target.String(), true
		}
		tag = next
	}
	return tag.Target.String(), true
}
