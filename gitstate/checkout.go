package gitstate

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
)

// ErrNotARepository is returned by Open when dir is not inside a Git checkout.
var ErrNotARepository = errors.New("not inside a Git checkout: run roster in a clone or pass --repo <naddr|nostr-url>")

// Checkout is a local Git repository opened with go-git.
type Checkout struct {
	repo *git.Repository
	// root is the work-tree root ("" for a bare repository).
	root string
	dir  string
}

// Open finds the Git repository containing dir (walking up like git does).
func Open(dir string) (*Checkout, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	repo, err := git.PlainOpenWithOptions(abs, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if errors.Is(err, git.ErrRepositoryNotExists) {
		// DetectDotGit only looks for a .git entry; a bare repository is the directory itself.
		repo, err = git.PlainOpen(abs)
	}
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return nil, fmt.Errorf("%s: %w", abs, ErrNotARepository)
	}
	if err != nil {
		return nil, fmt.Errorf("open Git repository at %s: %w", abs, err)
	}
	c := &Checkout{repo: repo, dir: abs}
	if wt, err := repo.Worktree(); err == nil {
		c.root = wt.Filesystem.Root()
		c.dir = c.root
	}
	return c, nil
}

// Dir is the work-tree root, or the directory Open was given for a bare
// repository.
func (c *Checkout) Dir() string { return c.dir }

// config reads the repository-local Git config (where ngit writes nostr.repo).
func (c *Checkout) config() (*config.Config, error) {
	cfg, err := c.repo.Config()
	if err != nil {
		return nil, fmt.Errorf("read Git config in %s: %w", c.dir, err)
	}
	// go-git reads url and pushurl together into RemoteConfig.URLs and
	// SetConfig writes them all back as url, turning every pushurl into an
	// extra fetch URL. Keep only the url values so a round trip through
	// SetConfig leaves remotes as they were.
	for name, rc := range cfg.Remotes {
		rc.URLs = cfg.Raw.Section("remote").Subsection(name).Options.GetAll("url")
	}
	return cfg, nil
}

// SetNostrRepo writes git config nostr.repo (local scope), replacing any
// previous values. naddr must decode to a repository coordinate.
func (c *Checkout) SetNostrRepo(naddr string) error {
	if _, _, err := DecodeNaddr(naddr); err != nil {
		return fmt.Errorf("refusing to write nostr.repo: %w", err)
	}
	cfg, err := c.config()
	if err != nil {
		return err
	}
	cfg.Raw.Section("nostr").SetOption("repo", naddr)
	return c.repo.SetConfig(cfg)
}

// SetOrigin points the origin remote at a nostr:// URL, creating it with the
// default fetch refspec when absent and keeping its other settings otherwise.
// A nostr:// pushurl naming a different coordinate is dropped: left behind,
// `git push` would keep publishing to the coordinate the user just left.
func (c *Checkout) SetOrigin(nostrURL string) error {
	ref, err := ParseNostrURL(nostrURL)
	if err != nil {
		return fmt.Errorf("refusing to set origin to %q: %w", short(nostrURL), err)
	}
	cfg, err := c.config()
	if err != nil {
		return err
	}
	if r, ok := cfg.Remotes["origin"]; ok {
		r.URLs = []string{nostrURL}
		sub := cfg.Raw.Section("remote").Subsection("origin")
		var keep []string
		for _, pu := range sub.Options.GetAll("pushurl") {
			old, err := ParseNostrURL(pu)
			if err == nil && (old.Coordinate != ref.Coordinate || old.NIP05 != ref.NIP05) {
				continue
			}
			keep = append(keep, pu)
		}
		if len(keep) == 0 {
			sub.RemoveOption("pushurl")
		} else {
			sub.SetOption("pushurl", keep...)
		}
	} else {
		cfg.Remotes["origin"] = &config.RemoteConfig{
			Name:  "origin",
			URLs:  []string{nostrURL},
			Fetch: []config.RefSpec{"+refs/heads/*:refs/remotes/origin/*"},
		}
	}
	return c.repo.SetConfig(cfg)
}
