package gitstate

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrNotARepository is returned by Open when dir is not inside a Git checkout.
var ErrNotARepository = errors.New("not inside a Git checkout: run roster in a clone or pass --repo <naddr|nostr-url>")

// Checkout is a local Git repository, read with go-git, or with the git
// command when go-git cannot open its format (see Open).
type Checkout struct {
	// repo is nil when the git command reads this checkout.
	repo *gitRepo
	// root is the work-tree root ("" for a bare repository).
	root string
	dir  string
	// gitDir is this work tree's Git directory (HEAD lives there);
	// commonDir the repository's (config, refs, packed-refs). They differ
	// in a linked worktree.
	gitDir, commonDir string
	// objectFormat is "sha1" or "sha256".
	objectFormat string
	// whyGit says why go-git could not open the checkout ("" when it did).
	whyGit string
}

// Open finds the Git repository containing dir (walking up like git does).
// A repository go-git refuses because of its format (an extension it does
// not know: extensions.worktreeConfig, extensions.objectFormat=sha256,
// extensions.refStorage=reftable, or a newer core.repositoryFormatVersion)
// is opened through the git command instead; without git on PATH that is a
// *GitMissingError.
func Open(dir string) (*Checkout, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	repo, root, err := openGitRepo(abs, true)
	if errors.Is(err, errRepositoryNotExists) {
		// Detection only looks for a .git entry; a bare repository is the directory itself.
		repo, root, err = openGitRepo(abs, false)
	}
	if errors.Is(err, errRepositoryNotExists) {
		return nil, fmt.Errorf("%s: %w", abs, ErrNotARepository)
	}
	if goGitRefuses(err) {
		return openWithGit(abs, err)
	}
	if err != nil {
		return nil, fmt.Errorf("open Git repository at %s: %w", abs, err)
	}
	c := &Checkout{repo: repo, dir: abs, gitDir: abs, objectFormat: "sha1"}
	if root != "" {
		c.root = root
		c.dir = c.root
		if c.gitDir, err = dotGitDir(c.root); err != nil {
			return nil, err
		}
	}
	c.commonDir = commonDir(c.gitDir)
	return c, nil
}

// goGitRefuses reports whether go-git's open error is about the repository
// format, which the git command may well read.
func goGitRefuses(err error) bool {
	return errors.Is(err, errUnknownExtension) ||
		errors.Is(err, errUnsupportedExtensionRepositoryFormatVersion) ||
		errors.Is(err, errUnsupportedRepositoryFormatVersion)
}

// openWithGit opens a checkout go-git refused, asking git where its
// directories are.
func openWithGit(abs string, cause error) (*Checkout, error) {
	c := &Checkout{dir: abs, whyGit: fmt.Sprintf("go-git cannot open it: %v", cause)}
	out, err := runGit(abs, c.needGit(), "rev-parse", "--is-bare-repository", "--absolute-git-dir", "--git-common-dir", "--show-object-format")
	if err != nil {
		return nil, fmt.Errorf("open Git repository at %s: %w", abs, err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 4 {
		return nil, fmt.Errorf("open Git repository at %s: unexpected `git rev-parse` output %q", abs, out)
	}
	c.gitDir, c.commonDir, c.objectFormat = lines[1], lines[2], lines[3]
	if !filepath.IsAbs(c.commonDir) {
		c.commonDir = filepath.Join(abs, c.commonDir)
	}
	c.commonDir = filepath.Clean(c.commonDir)
	if lines[0] != "true" {
		top, err := runGit(abs, c.needGit(), "rev-parse", "--show-toplevel")
		if err != nil {
			return nil, fmt.Errorf("open Git repository at %s: %w", abs, err)
		}
		c.root = strings.TrimSpace(string(top))
		c.dir = c.root
	}
	return c, nil
}

// needGit says, for a *GitMissingError, why this checkout needs git.
func (c *Checkout) needGit() string {
	return fmt.Sprintf("reading the checkout at %s (%s)", c.dir, c.whyGit)
}

// dotGitDir is the Git directory of the work tree at root: root/.git, or
// the directory a .git file ("gitdir: <path>") names in a linked worktree
// or submodule.
func dotGitDir(root string) (string, error) {
	p := filepath.Join(root, ".git")
	fi, err := os.Stat(p)
	if err != nil {
		return "", fmt.Errorf("open Git repository at %s: %w", root, err)
	}
	if fi.IsDir() {
		return p, nil
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return "", fmt.Errorf("open Git repository at %s: %w", root, err)
	}
	target, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
	if !ok {
		return "", fmt.Errorf("open Git repository at %s: .git is a file without a gitdir: line", root)
	}
	target = strings.TrimSpace(target)
	if !filepath.IsAbs(target) {
		target = filepath.Join(root, target)
	}
	return filepath.Clean(target), nil
}

// commonDir is the directory a Git directory's commondir file names, or
// the Git directory itself.
func commonDir(gitDir string) string {
	b, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return gitDir
	}
	p := strings.TrimSpace(string(b))
	if !filepath.IsAbs(p) {
		p = filepath.Join(gitDir, p)
	}
	return filepath.Clean(p)
}

// Dir is the work-tree root, or the directory Open was given for a bare
// repository.
func (c *Checkout) Dir() string { return c.dir }

// display names a path for a message: relative to the checkout when inside it.
func (c *Checkout) display(p string) string {
	if rel, err := filepath.Rel(c.dir, p); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
		return rel
	}
	return p
}

// SetNostrRepo writes git config nostr.repo (local scope), replacing any
// previous values, and changes nothing else in the config file.
// naddr must decode to a repository coordinate.
func (c *Checkout) SetNostrRepo(naddr string) error {
	if _, _, err := DecodeNaddr(naddr); err != nil {
		return fmt.Errorf("refusing to write nostr.repo: %w", err)
	}
	rc, err := c.repoConfig()
	if err != nil {
		return err
	}
	return c.editConfig(rc, []configEdit{replaceAll("nostr.repo", naddr)})
}

// SetOrigin points the origin remote at a nostr:// URL, creating it with the
// default fetch refspec when absent and keeping its other settings otherwise.
// A nostr:// pushurl naming a different coordinate is dropped: left behind,
// `git push` would keep publishing to the coordinate the user just left.
// Only origin's url (and such pushurl) lines change.
func (c *Checkout) SetOrigin(nostrURL string) error {
	ref, err := ParseNostrURL(nostrURL)
	if err != nil {
		return fmt.Errorf("refusing to set origin to %q: %w", short(nostrURL), err)
	}
	rc, err := c.repoConfig()
	if err != nil {
		return err
	}
	if !rc.hasRemote("origin") {
		return c.editConfig(rc, []configEdit{
			addValue("remote.origin.url", nostrURL),
			addValue("remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*"),
		})
	}
	edits := []configEdit{replaceAll("remote.origin.url", nostrURL)}
	dropped := map[string]bool{}
	for _, pu := range rc.getAll("remote.origin.pushurl") {
		old, err := ParseNostrURL(pu)
		if err == nil && (old.Coordinate != ref.Coordinate || old.NIP05 != ref.NIP05) && !dropped[pu] {
			dropped[pu] = true // --unset-all removes every line with this value
			edits = append(edits, unsetValue("remote.origin.pushurl", pu))
		}
	}
	return c.editConfig(rc, edits)
}
